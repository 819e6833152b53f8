import Layout
import Media

/// Drawing on YUV 4:2:0 planes: fills, outlines and text. Rectangles are even-aligned, so a
/// chroma sample always covers 2×2 luma pixels of one colour.
///
/// The loops work on raw pointers: this is per-pixel code on the hot path.
enum Painter {
    /// Fills a rectangle, clipped to the image.
    static func fill(_ image: PlanarImage, _ rect: Rect, _ color: YUVColor) {
        let area = clip(rect.evenAligned, image)
        guard !area.isEmpty else { return }
        for row in area.y..<area.maxY {
            (image.y + row * image.yStride + area.x).update(repeating: color.y, count: area.width)
        }
        for row in (area.y / 2)..<(area.maxY / 2) {
            (image.u + row * image.uStride + area.x / 2).update(repeating: color.u, count: area.width / 2)
            (image.v + row * image.vStride + area.x / 2).update(repeating: color.v, count: area.width / 2)
        }
    }

    /// Draws an outline `thickness` pixels wide, inside the rectangle.
    static func outline(_ image: PlanarImage, _ rect: Rect, thickness: Int, _ color: YUVColor) {
        let t = max(2, thickness & ~1)
        fill(image, Rect(x: rect.x, y: rect.y, width: rect.width, height: t), color)
        fill(image, Rect(x: rect.x, y: rect.maxY - t, width: rect.width, height: t), color)
        fill(image, Rect(x: rect.x, y: rect.y, width: t, height: rect.height), color)
        fill(image, Rect(x: rect.maxX - t, y: rect.y, width: t, height: rect.height), color)
    }

    /// Blends a rectangle with a colour at `opacity` (0…1).
    static func shade(_ image: PlanarImage, _ rect: Rect, _ color: YUVColor, opacity: Double) {
        let area = clip(rect.evenAligned, image)
        guard !area.isEmpty else { return }
        let keep = UInt16(max(0, min(256, Int(((1 - opacity) * 256).rounded()))))
        let add = 256 - keep
        func blend(_ base: UnsafeMutablePointer<UInt8>, stride: Int, rows: Range<Int>, columns: Range<Int>, value: UInt8) {
            let target = UInt16(value) * add
            for row in rows {
                let line = base + row * stride
                for column in columns {
                    line[column] = UInt8((UInt16(line[column]) * keep + target) >> 8)
                }
            }
        }
        blend(image.y, stride: image.yStride, rows: area.y..<area.maxY, columns: area.x..<area.maxX, value: color.y)
        let chromaRows = (area.y / 2)..<(area.maxY / 2), chromaColumns = (area.x / 2)..<(area.maxX / 2)
        blend(image.u, stride: image.uStride, rows: chromaRows, columns: chromaColumns, value: color.u)
        blend(image.v, stride: image.vStride, rows: chromaRows, columns: chromaColumns, value: color.v)
    }

    /// Draws a coverage mask (text) at `x, y` in a colour, clipped to `bounds`.
    static func draw(_ mask: GlyphMask, on image: PlanarImage, x: Int, y: Int, color: YUVColor, bounds: Rect) {
        guard mask.width > 0 else { return }
        let area = clip(bounds, image)
        let left = max(x, area.x), right = min(x + mask.width, area.maxX)
        let top = max(y, area.y), bottom = min(y + mask.height, area.maxY)
        guard left < right, top < bottom else { return }
        mask.alpha.withUnsafeBufferPointer { alpha in
            guard let coverage = alpha.baseAddress else { return }
            let value = UInt16(color.y)
            for row in top..<bottom {
                let line = image.y + row * image.yStride
                let source = coverage + (row - y) * mask.width - x
                for column in left..<right {
                    let a = UInt16(source[column])
                    if a == 0 { continue }
                    line[column] = UInt8((UInt16(line[column]) * (255 - a) + value * a) / 255)
                }
            }
            // Chroma: the average coverage of each 2×2 block.
            for (base, stride, value) in [(image.u, image.uStride, UInt16(color.u)), (image.v, image.vStride, UInt16(color.v))] {
                for chromaRow in (top / 2)..<((bottom + 1) / 2) {
                    let line = base + chromaRow * stride
                    for chromaColumn in (left / 2)..<((right + 1) / 2) {
                        var sum = 0
                        for dy in 0..<2 {
                            let row = chromaRow * 2 + dy - y
                            guard row >= 0 && row < mask.height else { continue }
                            for dx in 0..<2 {
                                let column = chromaColumn * 2 + dx - x
                                guard column >= 0 && column < mask.width else { continue }
                                sum += Int(coverage[row * mask.width + column])
                            }
                        }
                        let a = UInt16(sum / 4)
                        if a == 0 { continue }
                        line[chromaColumn] = UInt8((UInt16(line[chromaColumn]) * (255 - a) + value * a) / 255)
                    }
                }
            }
        }
    }

    /// A filled disc (the placeholder avatar) as a coverage mask, anti-aliased at its edge, and
    /// where the mask goes: an even-aligned box with two pixels of margin, so the edge is never
    /// cut. Draw it with `draw(_:on:x:y:color:bounds:)` at the box.
    static func disc(centerX: Int, centerY: Int, radius: Int, within canvas: Size) -> (mask: GlyphMask, box: Rect)? {
        guard radius > 1 else { return nil }
        let bounds = clip(Rect(x: centerX - radius - 2, y: centerY - radius - 2, width: 2 * radius + 4, height: 2 * radius + 4).evenAligned,
                          canvas)
        guard !bounds.isEmpty else { return nil }
        let r2 = Double(radius * radius)
        var mask = [UInt8](repeating: 0, count: bounds.width * bounds.height)
        for row in 0..<bounds.height {
            let dy = Double(bounds.y + row) + 0.5 - Double(centerY)
            for column in 0..<bounds.width {
                let dx = Double(bounds.x + column) + 0.5 - Double(centerX)
                let distance = (dx * dx + dy * dy).squareRoot() - r2.squareRoot()
                let coverage = max(0, min(1, 0.5 - distance))
                mask[row * bounds.width + column] = UInt8(coverage * 255)
            }
        }
        return (GlyphMask(width: bounds.width, height: bounds.height, alpha: mask), bounds)
    }

    static func clip(_ rect: Rect, _ image: PlanarImage) -> Rect {
        clip(rect, Size(width: image.width, height: image.height))
    }

    static func clip(_ rect: Rect, _ canvas: Size) -> Rect {
        let left = max(0, rect.x), top = max(0, rect.y)
        let right = min(canvas.width & ~1, rect.maxX), bottom = min(canvas.height & ~1, rect.maxY)
        return Rect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }
}
