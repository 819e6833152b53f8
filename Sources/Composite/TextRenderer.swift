import CFreeType
import Foundation

/// An 8-bit coverage mask of rendered text.
public struct GlyphMask: Sendable {
    public let width: Int
    public let height: Int
    /// Row-major coverage, 0…255.
    public let alpha: [UInt8]

    public static let empty = GlyphMask(width: 0, height: 0, alpha: [])
}

/// Draws text with FreeType (a real font: DejaVu Sans from Debian's fonts-dejavu-core).
/// Owns an `FT_Library` and an `FT_Face` and frees them in `deinit`. Rendered strings are
/// cached, since names repeat on every frame.
// @unchecked Sendable: owns an `FT_Library` and an `FT_Face`; they and `cache` are guarded by `lock`
public final class TextRenderer: @unchecked Sendable {
    private var library: FT_Library?
    private var face: FT_Face?
    private var cache: [String: GlyphMask] = [:]
    private let lock = NSLock()

    /// The font file: `REVUE_FONT`, else DejaVu Sans Bold.
    public static var defaultFontPath: String {
        if let configured = ProcessInfo.processInfo.environment["REVUE_FONT"], !configured.isEmpty { return configured }
        for candidate in ["/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]
        where FileManager.default.fileExists(atPath: candidate) {
            return candidate
        }
        return "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    }

    public init(fontPath: String = TextRenderer.defaultFontPath) throws(CompositeError) {
        guard FT_Init_FreeType(&library) == 0 else { throw CompositeError("FreeType could not start") }
        guard FT_New_Face(library, fontPath, 0, &face) == 0, face != nil else {
            // deinit runs for a failed init too: leave it nothing to free twice.
            FT_Done_FreeType(library)
            library = nil
            face = nil
            throw CompositeError("cannot load the font \(fontPath) (install fonts-dejavu-core or set REVUE_FONT)")
        }
    }

    deinit {
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    /// Renders one line of text at a pixel height (the font's em size). Characters the font
    /// lacks are skipped.
    public func render(_ text: String, pixelSize: Int) -> GlyphMask {
        lock.lock()
        defer { lock.unlock() }
        let key = "\(pixelSize)|\(text)"
        if let cached = cache[key] { return cached }
        let mask = draw(text, pixelSize: max(4, pixelSize))
        if cache.count > 512 { cache.removeAll() }
        cache[key] = mask
        return mask
    }

    /// The width of `text` at `pixelSize`, without keeping the rendering.
    public func width(of text: String, pixelSize: Int) -> Int { render(text, pixelSize: pixelSize).width }

    private func draw(_ text: String, pixelSize: Int) -> GlyphMask {
        guard let face else { return .empty }
        FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelSize))
        let metrics = face.pointee.size.pointee.metrics
        let ascender = Int(metrics.ascender >> 6)
        let descender = Int(-(metrics.descender >> 6))
        let height = max(1, ascender + descender)
        // First pass: pen positions and the total width.
        struct Placed { let bitmap: [UInt8]; let width: Int; let rows: Int; let x: Int; let top: Int }
        var placed: [Placed] = []
        var pen = 0
        var previous: FT_UInt = 0
        let kerning = revue_ft_has_kerning(face) != 0
        for scalar in text.unicodeScalars {
            let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
            if index == 0 && scalar.value != 32 { continue }
            if kerning && previous != 0 && index != 0 {
                var delta = FT_Vector()
                FT_Get_Kerning(face, previous, index, FT_UInt(revue_ft_kerning_default()), &delta)
                pen += Int(delta.x >> 6)
            }
            guard FT_Load_Glyph(face, index, revue_ft_load_render()) == 0, let slot = face.pointee.glyph else { continue }
            let bitmap = slot.pointee.bitmap
            let width = Int(bitmap.width), rows = Int(bitmap.rows), pitch = Int(bitmap.pitch)
            var pixels = [UInt8](repeating: 0, count: width * rows)
            if let buffer = bitmap.buffer, pitch >= width {
                for row in 0..<rows {
                    for column in 0..<width { pixels[row * width + column] = buffer[row * pitch + column] }
                }
            }
            placed.append(Placed(bitmap: pixels, width: width, rows: rows, x: pen + Int(slot.pointee.bitmap_left),
                                 top: ascender - Int(slot.pointee.bitmap_top)))
            pen += Int(slot.pointee.advance.x >> 6)
            previous = index
        }
        let totalWidth = max(pen, placed.map { $0.x + $0.width }.max() ?? 0)
        guard totalWidth > 0 else { return .empty }
        var alpha = [UInt8](repeating: 0, count: totalWidth * height)
        for glyph in placed {
            for row in 0..<glyph.rows {
                let y = glyph.top + row
                guard y >= 0 && y < height else { continue }
                for column in 0..<glyph.width {
                    let x = glyph.x + column
                    guard x >= 0 && x < totalWidth else { continue }
                    let value = glyph.bitmap[row * glyph.width + column]
                    if value > alpha[y * totalWidth + x] { alpha[y * totalWidth + x] = value }
                }
            }
        }
        return GlyphMask(width: totalWidth, height: height, alpha: alpha)
    }
}

/// A failure to set up compositing (a missing font, an impossible size).
public struct CompositeError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
