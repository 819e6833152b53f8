import Composite
import Media

/// A synthetic camera that costs little to draw: one colour, a white square moving across it (as
/// the fixtures' cameras have, so motion is visible and the encoder has work), and the
/// participant's name in the bottom left, so a person looking at a recording sees who is who.
///
/// The background and the name are drawn once; each frame is a copy of them with the square.
public final class TestPatternCamera: CameraSource, Sendable {
    public let format: CameraFormat
    public let colour: YUVColor
    public let name: String
    private let background: VideoFrame
    private let square: Int
    /// Pixels a second the square moves (120 at 640 wide, as the fixtures').
    private let speed: Double

    /// - Parameter rgb: the background colour as 0xRRGGBB.
    public init(name: String, rgb: UInt32, format: CameraFormat = .h360p_w640p) throws(CompositeError) {
        self.format = format
        self.name = name
        colour = YUVColor(rgb: rgb)
        square = max(2, format.height * 80 / 360) & ~1
        speed = 120 * Double(format.width) / 640
        var picture = VideoFrame(width: format.width, height: format.height, color: colour)
        if !name.isEmpty {
            let mask = try TextRenderer().render(name, pixelSize: max(10, format.height / 14))
            let left = format.height / 24, top = format.height - format.height / 24 - mask.height
            TestPatternCamera.blend(mask, into: &picture, x: left, y: top)
        }
        background = picture
    }

    public func frame(_ index: Int) -> VideoFrame {
        var picture = background
        picture.mediaTime = Double(index) / Double(format.framesPerSecond)
        let travel = max(1, format.width - square)
        let x = Int((picture.mediaTime * speed).rounded(.down)) % travel & ~1
        let y = (format.height - square) / 2 & ~1
        TestPatternCamera.fill(&picture, x: x, y: y, width: square, height: square, colour: .white)
        return picture
    }

    /// Fills a rectangle (even position and size) with one colour.
    static func fill(_ picture: inout VideoFrame, x: Int, y: Int, width: Int, height: Int, colour: YUVColor) {
        let right = min(picture.width, x + width), bottom = min(picture.height, y + height)
        guard right > x, bottom > y else { return }
        let lumaWidth = picture.width, chromaWidth = picture.chromaWidth
        picture.y.withUnsafeMutableBufferPointer { plane in
            for row in y..<bottom { plane.baseAddress.map { ($0 + row * lumaWidth + x).update(repeating: colour.y, count: right - x) } }
        }
        for row in (y / 2)..<((bottom + 1) / 2) {
            let start = row * chromaWidth + x / 2, count = (right + 1) / 2 - x / 2
            picture.u.withUnsafeMutableBufferPointer { plane in plane.baseAddress.map { ($0 + start).update(repeating: colour.u, count: count) } }
            picture.v.withUnsafeMutableBufferPointer { plane in plane.baseAddress.map { ($0 + start).update(repeating: colour.v, count: count) } }
        }
    }

    /// Draws white text through its coverage mask: luma towards white, chroma towards grey.
    static func blend(_ mask: GlyphMask, into picture: inout VideoFrame, x left: Int, y top: Int) {
        for row in 0..<mask.height {
            let y = top + row
            guard y >= 0, y < picture.height else { continue }
            for column in 0..<mask.width {
                let x = left + column
                guard x >= 0, x < picture.width else { continue }
                let alpha = Int(mask.alpha[row * mask.width + column])
                guard alpha > 0 else { continue }
                let index = y * picture.width + x
                picture.y[index] = UInt8((Int(picture.y[index]) * (255 - alpha) + 235 * alpha) / 255)
                if row % 2 == 0 && column % 2 == 0 {
                    let chroma = (y / 2) * picture.chromaWidth + x / 2
                    picture.u[chroma] = UInt8((Int(picture.u[chroma]) * (255 - alpha) + 128 * alpha) / 255)
                    picture.v[chroma] = UInt8((Int(picture.v[chroma]) * (255 - alpha) + 128 * alpha) / 255)
                }
            }
        }
    }
}
