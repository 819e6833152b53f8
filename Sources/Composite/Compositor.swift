import LibAV
import Layout
import Media

/// Draws a layout onto YUV 4:2:0 planes: each tile's picture scaled by libswscale into its
/// place, placeholders with initials for a camera that is off or has no picture yet, name
/// labels, outlines, and the active speaker's highlight.
///
/// It draws only what changed. The planes it is given are expected to hold the picture it drew
/// last (the pipeline lends it the encoder's input frame, which keeps its content between
/// frames), so a tile whose picture, name, place and highlight are the same as last time is left
/// as it is: a stalled camera or a placeholder costs nothing, and a new camera picture is scaled
/// once. Different planes (another address or size) are drawn in full.
///
/// One compositor per output; not shared between threads.
public final class Compositor {
    public let canvasSize: Size
    public let theme: Theme
    private let text: TextRenderer
    private var scalers: [ScalerKey: ScaleContext] = [:]
    private var scratch: VideoFrame?
    /// The planes drawn on last, and what each tile there shows.
    private var target: TargetIdentity?
    private var geometry: [Rect]?
    private var drawn: [DrawnTile] = []
    private var discs: [DiscKey: (mask: GlyphMask, box: Rect)] = [:]
    private var labels: [LabelKey: Label] = [:]
    struct ScalerKey: Hashable {
        let source: Size
        let destination: Size
    }

    struct TargetIdentity: Equatable {
        let y: UnsafeMutablePointer<UInt8>
        let u: UnsafeMutablePointer<UInt8>
        let v: UnsafeMutablePointer<UInt8>
        let strides: [Int]
    }

    /// What a tile on the canvas shows. The picture is kept, so its storage cannot be reused by
    /// another picture while it is compared by address.
    struct DrawnTile {
        let tile: Tile
        let picture: VideoFrame?

        func shows(_ other: Tile, _ otherPicture: VideoFrame?) -> Bool {
            guard tile == other else { return false }
            switch (picture, otherPicture) {
            case (nil, nil): return true
            case (let a?, let b?): return a.mediaTime == b.mediaTime && a.width == b.width && a.height == b.height
                && Compositor.storage(of: a) == Compositor.storage(of: b)
            default: return false
            }
        }
    }

    struct DiscKey: Hashable {
        let centerX: Int
        let centerY: Int
        let radius: Int
    }

    struct LabelKey: Hashable {
        let text: String
        let rect: Rect
    }

    /// A label's rendered text (shortened to fit) and its box.
    struct Label {
        let mask: GlyphMask
        let box: Rect
        let padding: Int
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
        canvas.withPlanarImage { render(layout, pictures: pictures, shares: shares, into: $0) }
    }

    /// Draws `layout` onto planes that hold what this compositor drew last (or anything, if they
    /// are not the planes it drew on last: then everything is drawn).
    public func render(_ layout: Layout, pictures: [String: VideoFrame], shares: [String: VideoFrame], into image: PlanarImage) {
        precondition(image.width == canvasSize.width && image.height == canvasSize.height, "canvas size changed")
        let identity = TargetIdentity(y: image.y, u: image.u, v: image.v, strides: [image.yStride, image.uStride, image.vStride])
        let rects = layout.tiles.map(\.rect)
        if identity != target || rects != geometry {
            // Gaps between tiles only need painting when the geometry or the planes change.
            Painter.fill(image, Rect(x: 0, y: 0, width: canvasSize.width, height: canvasSize.height), theme.background)
            target = identity
            geometry = rects
            drawn = []
        }
        var next: [DrawnTile] = []
        next.reserveCapacity(layout.tiles.count)
        var redrawn: [Rect] = []
        for (index, tile) in layout.tiles.enumerated() {
            let picture: VideoFrame?
            switch tile.content {
            case .camera: picture = pictures[tile.participantID]
            case .screenShare: picture = shares[tile.participantID]
            case .cameraOff: picture = nil
            }
            // A tile is drawn again when what it shows changed, or when a tile drawn over it
            // earlier in this frame overlaps it (every tile paints its whole rectangle).
            let previous = index < drawn.count && !redrawn.contains { $0.intersects(tile.rect) } ? drawn[index] : nil
            next.append(DrawnTile(tile: tile, picture: picture))
            if let previous, previous.shows(tile, picture) { continue }
            redrawn.append(tile.rect)
            if let previous, let picture, onlyPictureChanged(from: previous, to: tile, picture) {
                // The bars beside the picture and a label clear of it are as they were.
                drawPicture(picture, in: tile, on: image, bars: false)
                drawOutline(tile, on: image)
                continue
            }
            if let picture {
                drawPicture(picture, in: tile, on: image)
            } else {
                drawPlaceholder(for: tile, on: image)
            }
            drawLabel(tile, on: image)
            drawOutline(tile, on: image)
        }
        drawn = next
    }

    /// Whether only the picture differs, at the same size (so in the same place), and the label
    /// does not lie over it: then the rest of the tile need not be drawn again.
    private func onlyPictureChanged(from previous: DrawnTile, to tile: Tile, _ picture: VideoFrame) -> Bool {
        guard previous.tile == tile, let old = previous.picture, old.width == picture.width, old.height == picture.height else { return false }
        let placement = ContentPlacement.place(source: Size(width: picture.width, height: picture.height), in: tile.rect,
                                               mode: tile.placementMode)
        guard !placement.destination.isEmpty, !placement.crop.isEmpty else { return false }
        return !(label(for: tile).map { $0.box.intersects(placement.destination) } ?? false)
    }

    private func drawOutline(_ tile: Tile, on image: PlanarImage) {
        let thickness = tile.isActiveSpeaker ? outlineWidth(tile) * 2 : outlineWidth(tile)
        Painter.outline(image, tile.rect, thickness: thickness, tile.isActiveSpeaker ? theme.highlight : theme.border)
    }

    /// The address of a picture's luma storage: two frames with the same storage are the same
    /// picture (a frame's arrays are copied only when written).
    static func storage(of picture: VideoFrame) -> UnsafeRawPointer? {
        picture.y.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    // MARK: - Tiles

    private func outlineWidth(_ tile: Tile) -> Int {
        max(2, (canvasSize.height / 360) & ~1)
    }

    private func drawPicture(_ picture: VideoFrame, in tile: Tile, on image: PlanarImage, bars: Bool = true) {
        let placement = ContentPlacement.place(source: Size(width: picture.width, height: picture.height), in: tile.rect,
                                               mode: tile.placementMode)
        let destination = placement.destination
        guard !destination.isEmpty, !placement.crop.isEmpty else {
            drawPlaceholder(for: tile, on: image)
            return
        }
        if bars && destination != tile.rect {
            // Only the bars beside the picture: the picture covers the rest.
            let tileRect = tile.rect
            Painter.fill(image, Rect(x: tileRect.x, y: tileRect.y, width: tileRect.width, height: destination.y - tileRect.y), theme.tile)
            Painter.fill(image, Rect(x: tileRect.x, y: destination.maxY, width: tileRect.width, height: tileRect.maxY - destination.maxY),
                         theme.tile)
            Painter.fill(image, Rect(x: tileRect.x, y: destination.y, width: destination.x - tileRect.x, height: destination.height),
                         theme.tile)
            Painter.fill(image, Rect(x: destination.maxX, y: destination.y, width: tileRect.maxX - destination.maxX,
                                     height: destination.height), theme.tile)
        }
        if placement.crop.size == destination.size {
            // Shown pixel for pixel (ContentPlacement's unscaled middle): rows are copied.
            Compositor.copy(picture, crop: placement.crop, to: image, at: destination)
            return
        }
        let key = ScalerKey(source: placement.crop.size, destination: destination.size)
        let scaler: ScaleContext
        if let cached = scalers[key] {
            scaler = cached
        } else {
            guard let made = try? ScaleContext(sourceWidth: key.source.width, sourceHeight: key.source.height,
                                               destinationWidth: key.destination.width, destinationHeight: key.destination.height)
            else {
                drawPlaceholder(for: tile, on: image)
                return
            }
            if scalers.count > 64 { scalers.removeAll() }
            scalers[key] = made
            scaler = made
        }
        let crop = placement.crop
        picture.y.withUnsafeBufferPointer { sy in
            picture.u.withUnsafeBufferPointer { su in
                picture.v.withUnsafeBufferPointer { sv in
                    guard let sourceY = sy.baseAddress, let sourceU = su.baseAddress, let sourceV = sv.baseAddress else { return }
                    let sourceChroma = picture.chromaWidth
                    let source = [UnsafePointer(sourceY + crop.y * picture.width + crop.x),
                                  UnsafePointer(sourceU + (crop.y / 2) * sourceChroma + crop.x / 2),
                                  UnsafePointer(sourceV + (crop.y / 2) * sourceChroma + crop.x / 2)]
                    let strides = [Int32(picture.width), Int32(sourceChroma), Int32(sourceChroma)]
                    scaleThroughScratch(scaler, source: source, strides: strides, to: destination, on: image)
                }
            }
        }
    }

    /// libswscale may write a few bytes past the end of each destination row (its vector
    /// stores), and takes its fast paths only for 16-byte aligned rows, which a tile's place on
    /// the canvas seldom is: so it scales into an aligned scratch picture with room to spare,
    /// and the rows are copied into place (measured: faster than scaling into the canvas).
    private func scaleThroughScratch(_ scaler: ScaleContext, source: [UnsafePointer<UInt8>], strides: [Int32], to destination: Rect,
                                     on image: PlanarImage)
    {
        let scratchWidth = (destination.width + 63) & ~31
        if scratch.map({ $0.width != scratchWidth || $0.height != destination.height }) ?? true {
            scratch = VideoFrame(width: scratchWidth, height: destination.height)
        }
        // Taken out while written, so its buffers are not copied on write.
        guard var buffer = scratch.take() else { return }
        buffer.withPlanarImage { picture in
            scaler.scale(source: source, sourceStrides: strides, destination: [picture.y, picture.u, picture.v],
                         destinationStrides: [Int32(picture.yStride), Int32(picture.uStride), Int32(picture.vStride)])
            Compositor.copy(picture, width: destination.width, height: destination.height, to: image, at: destination)
        }
        scratch = buffer
    }

    /// Copies the top-left `width × height` of `source` onto the image at `rect`'s origin.
    static func copy(_ source: PlanarImage, width: Int, height: Int, to image: PlanarImage, at rect: Rect) {
        func rows(_ from: UnsafeMutablePointer<UInt8>, _ fromStride: Int, _ to: UnsafeMutablePointer<UInt8>, _ toStride: Int,
                  x: Int, y: Int, w: Int, h: Int)
        {
            for row in 0..<h { (to + (y + row) * toStride + x).update(from: from + row * fromStride, count: w) }
        }
        rows(source.y, source.yStride, image.y, image.yStride, x: rect.x, y: rect.y, w: width, h: height)
        rows(source.u, source.uStride, image.u, image.uStride, x: rect.x / 2, y: rect.y / 2, w: width / 2, h: height / 2)
        rows(source.v, source.vStride, image.v, image.vStride, x: rect.x / 2, y: rect.y / 2, w: width / 2, h: height / 2)
    }

    /// Copies `crop` of a picture (even-aligned) onto the image at `rect`'s origin.
    static func copy(_ picture: VideoFrame, crop: Rect, to image: PlanarImage, at rect: Rect) {
        func rows(_ from: UnsafeBufferPointer<UInt8>, _ fromStride: Int, _ to: UnsafeMutablePointer<UInt8>, _ toStride: Int,
                  x: Int, y: Int, w: Int, h: Int, fromX: Int, fromY: Int)
        {
            guard let base = from.baseAddress, (fromY + h - 1) * fromStride + fromX + w <= from.count else { return }
            for row in 0..<h { (to + (y + row) * toStride + x).update(from: base + (fromY + row) * fromStride + fromX, count: w) }
        }
        let chroma = picture.chromaWidth
        picture.y.withUnsafeBufferPointer {
            rows($0, picture.width, image.y, image.yStride, x: rect.x, y: rect.y, w: crop.width, h: crop.height, fromX: crop.x, fromY: crop.y)
        }
        picture.u.withUnsafeBufferPointer {
            rows($0, chroma, image.u, image.uStride, x: rect.x / 2, y: rect.y / 2, w: crop.width / 2, h: crop.height / 2,
                 fromX: crop.x / 2, fromY: crop.y / 2)
        }
        picture.v.withUnsafeBufferPointer {
            rows($0, chroma, image.v, image.vStride, x: rect.x / 2, y: rect.y / 2, w: crop.width / 2, h: crop.height / 2,
                 fromX: crop.x / 2, fromY: crop.y / 2)
        }
    }

    /// A tile with the participant's initials on a disc: camera off, or no picture yet. The
    /// first frames of a recording are never black.
    private func drawPlaceholder(for tile: Tile, on image: PlanarImage) {
        Painter.fill(image, tile.rect, theme.tile)
        let rect = tile.rect
        let radius = max(8, min(rect.width, rect.height) / 5)
        let centerX = rect.x + rect.width / 2, centerY = rect.y + rect.height / 2 - rect.height / 20
        let key = DiscKey(centerX: centerX, centerY: centerY, radius: radius)
        let disc = discs[key] ?? Painter.disc(centerX: centerX, centerY: centerY, radius: radius, within: canvasSize)
        if let disc {
            if discs.count > 64 { discs.removeAll() }
            discs[key] = disc
            Painter.draw(disc.mask, on: image, x: disc.box.x, y: disc.box.y, color: theme.avatar, bounds: disc.box)
        }
        let initials = Compositor.initials(of: tile.name)
        let mask = text.render(initials, pixelSize: radius)
        Painter.draw(mask, on: image, x: centerX - mask.width / 2, y: centerY - mask.height / 2, color: theme.avatarText, bounds: rect)
    }

    /// The name at the bottom left, on a shaded box, shortened with an ellipsis to fit.
    private func drawLabel(_ tile: Tile, on image: PlanarImage) {
        guard let label = label(for: tile) else { return }
        Painter.shade(image, label.box, theme.labelBackground, opacity: theme.labelOpacity)
        Painter.draw(label.mask, on: image, x: label.box.x + label.padding, y: label.box.y + label.padding, color: theme.labelText,
                     bounds: label.box)
    }

    /// The tile's label (cached by name and place), or nil when the tile is too small for one.
    private func label(for tile: Tile) -> Label? {
        let name = tile.content == .screenShare ? "\(tile.name) (screen)" : tile.name
        let key = LabelKey(text: name, rect: tile.rect)
        if let cached = labels[key] { return cached }
        guard let made = makeLabel(name, in: tile.rect) else { return nil }
        if labels.count > 64 { labels.removeAll() }
        labels[key] = made
        return made
    }

    private func makeLabel(_ text: String, in rect: Rect) -> Label? {
        let size = max(12, min(30, rect.height / 14))
        let padding = max(4, size / 3) & ~1
        let margin = max(6, size / 2) & ~1
        let maxWidth = rect.width - 2 * margin - 2 * padding
        guard maxWidth > size, rect.height > size * 3 else { return nil }
        var name = text
        var mask = self.text.render(name, pixelSize: size)
        while mask.width > maxWidth && name.count > 1 {
            name = String(name.dropLast(name.hasSuffix("…") ? 2 : 1)) + "…"
            mask = self.text.render(name, pixelSize: size)
        }
        let box = Rect(x: rect.x + margin, y: rect.maxY - margin - mask.height - 2 * padding,
                       width: mask.width + 2 * padding, height: mask.height + 2 * padding).evenAligned
        return Label(mask: mask, box: box, padding: padding)
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
