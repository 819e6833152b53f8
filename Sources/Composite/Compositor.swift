import LibAV
import Layout
import Media

/// Draws a layout onto a YUV 4:2:0 canvas: each tile's picture scaled by libswscale straight
/// into its place on the canvas (no intermediate copy), placeholders with initials for a camera
/// that is off or has no picture yet, name labels, outlines, and the active speaker's highlight.
///
/// One compositor per output; not shared between threads.
public final class Compositor: @unchecked Sendable {
    public let canvasSize: Size
    public let theme: Theme
    private let text: TextRenderer
    private var scalers: [ScalerKey: ScaleContext] = [:]
    private var placeholders: [String: GlyphMask] = [:]
    private var lastLayout: Layout?
    private var scratch: VideoFrame?

    struct ScalerKey: Hashable {
        let source: Size
        let destination: Size
    }

    public init(canvas: Size, theme: Theme, text: TextRenderer) throws(CompositeError) {
        guard canvas.width >= 16, canvas.height >= 16, canvas.width % 2 == 0, canvas.height % 2 == 0 else {
            throw CompositeError("a canvas must be at least 16x16 and even-sized, not \(canvas)")
        }
        canvasSize = canvas
        self.theme = theme
        self.text = text
    }

    /// A blank canvas in the theme's background colour.
    public func makeCanvas() -> VideoFrame {
        VideoFrame(width: canvasSize.width, height: canvasSize.height, color: theme.background)
    }

    /// Draws `layout` onto `canvas`. `pictures` holds each participant's latest camera picture
    /// and `shares` their screen share; a tile whose picture is missing gets a placeholder.
    public func render(_ layout: Layout, pictures: [String: VideoFrame], shares: [String: VideoFrame],
                       into canvas: inout VideoFrame)
    {
        precondition(canvas.width == canvasSize.width && canvas.height == canvasSize.height, "canvas size changed")
        if lastLayout?.tiles.map(\.rect) != layout.tiles.map(\.rect) || lastLayout == nil {
            // Gaps between tiles only need painting when the geometry changes.
            Painter.fill(&canvas, Rect(x: 0, y: 0, width: canvasSize.width, height: canvasSize.height), theme.background)
        }
        lastLayout = layout
        for tile in layout.tiles {
            let picture: VideoFrame?
            switch tile.content {
            case .camera: picture = pictures[tile.participantID]
            case .screenShare: picture = shares[tile.participantID]
            case .cameraOff: picture = nil
            }
            if let picture {
                drawPicture(picture, in: tile, on: &canvas)
            } else {
                drawPlaceholder(for: tile, on: &canvas)
            }
            drawLabel(tile, on: &canvas)
            let thickness = tile.isActiveSpeaker ? outlineWidth(tile) * 2 : outlineWidth(tile)
            Painter.outline(&canvas, tile.rect, thickness: thickness, tile.isActiveSpeaker ? theme.highlight : theme.border)
        }
    }

    // MARK: - Tiles

    private func outlineWidth(_ tile: Tile) -> Int {
        max(2, (canvasSize.height / 360) & ~1)
    }

    private func drawPicture(_ picture: VideoFrame, in tile: Tile, on canvas: inout VideoFrame) {
        let placement = ContentPlacement.place(source: Size(width: picture.width, height: picture.height), in: tile.rect,
                                               mode: tile.placementMode)
        let destination = placement.destination
        guard !destination.isEmpty, !placement.crop.isEmpty else {
            drawPlaceholder(for: tile, on: &canvas)
            return
        }
        if destination != tile.rect {
            // Only the bars beside the picture: the picture covers the rest.
            let tileRect = tile.rect
            Painter.fill(&canvas, Rect(x: tileRect.x, y: tileRect.y, width: tileRect.width, height: destination.y - tileRect.y), theme.tile)
            Painter.fill(&canvas, Rect(x: tileRect.x, y: destination.maxY, width: tileRect.width, height: tileRect.maxY - destination.maxY),
                         theme.tile)
            Painter.fill(&canvas, Rect(x: tileRect.x, y: destination.y, width: destination.x - tileRect.x, height: destination.height),
                         theme.tile)
            Painter.fill(&canvas, Rect(x: destination.maxX, y: destination.y, width: tileRect.maxX - destination.maxX,
                                       height: destination.height), theme.tile)
        }
        let key = ScalerKey(source: placement.crop.size, destination: destination.size)
        let scaler: ScaleContext
        if let cached = scalers[key] {
            scaler = cached
        } else {
            guard let made = try? ScaleContext(sourceWidth: key.source.width, sourceHeight: key.source.height,
                                               destinationWidth: key.destination.width, destinationHeight: key.destination.height)
            else {
                drawPlaceholder(for: tile, on: &canvas)
                return
            }
            if scalers.count > 64 { scalers.removeAll() }
            scalers[key] = made
            scaler = made
        }
        // libswscale may write a few pixels past the destination width (its SIMD stores), so it
        // scales into a scratch picture with room to spare, and the rows are copied into place.
        let scratchWidth = (destination.width + 63) & ~31
        if scratch.map({ $0.width != scratchWidth || $0.height != destination.height }) ?? true {
            scratch = VideoFrame(width: scratchWidth, height: destination.height)
        }
        // Taken out while written, so its buffers are not copied on write.
        guard var buffer = scratch.take() else { return }
        let crop = placement.crop
        picture.y.withUnsafeBufferPointer { sy in
            picture.u.withUnsafeBufferPointer { su in
                picture.v.withUnsafeBufferPointer { sv in
                    buffer.y.withUnsafeMutableBufferPointer { dy in
                        buffer.u.withUnsafeMutableBufferPointer { du in
                            buffer.v.withUnsafeMutableBufferPointer { dv in
                                guard let sourceY = sy.baseAddress, let sourceU = su.baseAddress, let sourceV = sv.baseAddress
                                else { return }
                                let sourceChroma = picture.chromaWidth
                                scaler.scale(
                                    source: [UnsafePointer(sourceY + crop.y * picture.width + crop.x),
                                             UnsafePointer(sourceU + (crop.y / 2) * sourceChroma + crop.x / 2),
                                             UnsafePointer(sourceV + (crop.y / 2) * sourceChroma + crop.x / 2)],
                                    sourceStrides: [Int32(picture.width), Int32(sourceChroma), Int32(sourceChroma)],
                                    destination: [dy.baseAddress, du.baseAddress, dv.baseAddress],
                                    destinationStrides: [Int32(scratchWidth), Int32(scratchWidth / 2), Int32(scratchWidth / 2)])
                            }
                        }
                    }
                }
            }
        }
        Compositor.copy(buffer, width: destination.width, height: destination.height, to: &canvas, at: destination)
        scratch = buffer
    }

    /// Copies the top-left `width × height` of `source` onto the canvas at `rect`'s origin.
    static func copy(_ source: VideoFrame, width: Int, height: Int, to canvas: inout VideoFrame, at rect: Rect) {
        func rows(_ from: [UInt8], _ fromStride: Int, _ to: inout [UInt8], _ toStride: Int, x: Int, y: Int, w: Int, h: Int) {
            from.withUnsafeBufferPointer { input in
                to.withUnsafeMutableBufferPointer { output in
                    guard let a = input.baseAddress, let b = output.baseAddress else { return }
                    for row in 0..<h { (b + (y + row) * toStride + x).update(from: a + row * fromStride, count: w) }
                }
            }
        }
        let canvasWidth = canvas.width, canvasChroma = canvas.chromaWidth
        rows(source.y, source.width, &canvas.y, canvasWidth, x: rect.x, y: rect.y, w: width, h: height)
        rows(source.u, source.chromaWidth, &canvas.u, canvasChroma, x: rect.x / 2, y: rect.y / 2, w: width / 2, h: height / 2)
        rows(source.v, source.chromaWidth, &canvas.v, canvasChroma, x: rect.x / 2, y: rect.y / 2, w: width / 2, h: height / 2)
    }

    /// A tile with the participant's initials on a disc: camera off, or no picture yet. The
    /// first frames of a recording are never black.
    private func drawPlaceholder(for tile: Tile, on canvas: inout VideoFrame) {
        Painter.fill(&canvas, tile.rect, theme.tile)
        let rect = tile.rect
        let radius = max(8, min(rect.width, rect.height) / 5)
        let centerX = rect.x + rect.width / 2, centerY = rect.y + rect.height / 2 - rect.height / 20
        Painter.disc(&canvas, centerX: centerX, centerY: centerY, radius: radius, theme.avatar)
        let initials = Compositor.initials(of: tile.name)
        let mask = text.render(initials, pixelSize: radius)
        Painter.draw(mask, on: &canvas, x: centerX - mask.width / 2, y: centerY - mask.height / 2, color: theme.avatarText,
                     bounds: rect)
    }

    /// The name at the bottom left, on a shaded box, shortened with an ellipsis to fit.
    private func drawLabel(_ tile: Tile, on canvas: inout VideoFrame) {
        let rect = tile.rect
        let size = max(12, min(30, rect.height / 14))
        let padding = max(4, size / 3) & ~1
        let margin = max(6, size / 2) & ~1
        let maxWidth = rect.width - 2 * margin - 2 * padding
        guard maxWidth > size, rect.height > size * 3 else { return }
        var name = tile.content == .screenShare ? "\(tile.name) (screen)" : tile.name
        var mask = text.render(name, pixelSize: size)
        while mask.width > maxWidth && name.count > 1 {
            name = String(name.dropLast(name.hasSuffix("…") ? 2 : 1)) + "…"
            mask = text.render(name, pixelSize: size)
        }
        let box = Rect(x: rect.x + margin, y: rect.maxY - margin - mask.height - 2 * padding,
                       width: mask.width + 2 * padding, height: mask.height + 2 * padding).evenAligned
        Painter.shade(&canvas, box, theme.labelBackground, opacity: theme.labelOpacity)
        Painter.draw(mask, on: &canvas, x: box.x + padding, y: box.y + padding, color: theme.labelText, bounds: box)
    }

    /// Up to two initials, from the words that start with a letter or digit: "Erin" → "E",
    /// "Frank de Vries" → "FV", "Carol (host)" → "CH".
    public static func initials(of name: String) -> String {
        let words = name.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).filter { !$0.isEmpty }
        guard let first = words.first?.first else { return "?" }
        var letters = String(first).uppercased()
        if words.count > 1, let last = words.last?.first { letters += String(last).uppercased() }
        return letters
    }
}
