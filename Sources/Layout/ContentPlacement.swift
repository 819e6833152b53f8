/// Where a source picture lands inside a tile, and which part of it is shown.
///
/// The rule for cameras (`fill`): the picture fills its tile by centre-crop, but no more than a
/// quarter of its width or height is cut away, so a face near the edge of a webcam picture stays
/// whole. When the tile's shape needs more than that, the crop stops at a quarter and the rest
/// is fitted, leaving bars of the tile colour. A vertical crop is placed at 40 % rather than
/// 50 %: more is cut from the bottom than from the top, where heads are.
///
/// A camera picture a little larger than its tile (at most `unscaledMargin` larger in each
/// dimension once cropped to the tile's shape, as a 640x360 simulcast layer is for the 628x348
/// tiles of a 720p grid) is not scaled down: the tile-sized middle of the crop is shown pixel
/// for pixel. The picture is then at most 5 % closer, which nobody sees, and the compositor
/// copies rows instead of scaling them (a tenth of a live recording's CPU, `bench/live-record`).
///
/// Screen shares use `fit`: scaled to fit, never cropped.
public struct ContentPlacement: Sendable, Equatable {
    public enum Mode: Sendable {
        case fill
        case fit
    }

    /// The part of the source shown, in source pixels (even-aligned).
    public var crop: Rect
    /// Where it is drawn, in canvas pixels (even-aligned, inside the tile).
    public var destination: Rect

    /// The most of a dimension a camera crop may cut away.
    public static let maxCropFraction = 0.25
    /// Where a vertical crop window sits (0 = top, 1 = bottom).
    public static let verticalCropAnchor = 0.4
    /// How much larger than its tile a camera's crop may be and still be shown unscaled.
    public static let unscaledMargin = 0.05

    public static func place(source: Size, in tile: Rect, mode: Mode) -> ContentPlacement {
        guard source.width >= 2, source.height >= 2, tile.width >= 2, tile.height >= 2 else {
            return ContentPlacement(crop: Rect(x: 0, y: 0, width: source.width & ~1, height: source.height & ~1),
                                    destination: Rect(x: tile.x, y: tile.y, width: 0, height: 0))
        }
        var crop = Rect(x: 0, y: 0, width: source.width, height: source.height)
        if mode == .fill {
            let tileAspect = tile.size.aspect
            if source.aspect > tileAspect {
                // Wider than the tile: cut the sides, centred.
                let wanted = Double(source.height) * tileAspect
                let width = max(wanted, Double(source.width) * (1 - maxCropFraction))
                crop.width = Int(width.rounded())
                crop.x = (source.width - crop.width) / 2
            } else if source.aspect < tileAspect {
                // Taller than the tile: cut top and bottom, more from the bottom.
                let wanted = Double(source.width) / tileAspect
                let height = max(wanted, Double(source.height) * (1 - maxCropFraction))
                crop.height = Int(height.rounded())
                crop.y = Int((Double(source.height - crop.height) * verticalCropAnchor).rounded())
            }
        }
        crop = crop.evenAligned
        if mode == .fill, let middle = unscaledMiddle(of: crop, in: tile, source: source) {
            return ContentPlacement(crop: middle, destination: tile.evenAligned)
        }
        // Fit the shown part into the tile, centred.
        let scale = min(Double(tile.width) / Double(crop.width), Double(tile.height) / Double(crop.height))
        let width = min(tile.width, Int((Double(crop.width) * scale).rounded()))
        let height = min(tile.height, Int((Double(crop.height) * scale).rounded()))
        let destination = Rect(x: tile.x + (tile.width - width) / 2, y: tile.y + (tile.height - height) / 2,
                               width: width, height: height).evenAligned
        return ContentPlacement(crop: crop, destination: destination)
    }

    /// The tile-sized middle of `crop`, when the crop is at least the tile's size and at most
    /// `unscaledMargin` larger in each dimension (the tile even-aligned, as pictures are), and
    /// the middle still keeps all but `maxCropFraction` of the source's width and height.
    private static func unscaledMiddle(of crop: Rect, in tile: Rect, source: Size) -> Rect? {
        let size = tile.evenAligned.size
        guard size.width > 0, size.height > 0, crop.width >= size.width, crop.height >= size.height,
              Double(crop.width) <= Double(size.width) * (1 + unscaledMargin),
              Double(crop.height) <= Double(size.height) * (1 + unscaledMargin),
              Double(size.width) >= Double(source.width) * (1 - maxCropFraction),
              Double(size.height) >= Double(source.height) * (1 - maxCropFraction)
        else { return nil }
        return Rect(x: crop.x + ((crop.width - size.width) / 2) & ~1, y: crop.y + ((crop.height - size.height) / 2) & ~1,
                    width: size.width, height: size.height)
    }

    /// Where a point of the source lands on the canvas (for tests that sample pixels).
    public func canvasPoint(sourceX: Double, sourceY: Double) -> (x: Int, y: Int) {
        let x = Double(destination.x) + (sourceX - Double(crop.x)) * Double(destination.width) / Double(max(1, crop.width))
        let y = Double(destination.y) + (sourceY - Double(crop.y)) * Double(destination.height) / Double(max(1, crop.height))
        return (Int(x), Int(y))
    }
}
