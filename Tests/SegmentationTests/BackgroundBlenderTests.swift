import Media
import Testing

@testable import Segmentation

@Suite struct BackgroundBlenderTests {
    static let red = YUVColor(red: 220, green: 30, blue: 30)
    static let green = YUVColor(red: 30, green: 200, blue: 60)

    @Test func aSureMaskShowsTheCameraAndNoMaskTheBackground() throws {
        let camera = VideoFrame(width: 64, height: 36, color: Self.red)
        let background = VideoFrame(width: 64, height: 36, color: Self.green)
        #expect(BackgroundBlender.blend(camera, over: background, mask: PersonMask(width: 16, height: 9, filledWith: 255)) == camera)
        let replaced = BackgroundBlender.blend(camera, over: background, mask: PersonMask(width: 16, height: 9, filledWith: 0))
        #expect(replaced.y == background.y && replaced.u == background.u && replaced.v == background.v)
    }

    /// A person on the left half: the left of the picture is the camera's, the right the
    /// background's, with a feathered edge between them no wider than a few mask pixels.
    @Test func theMaskDecidesWhereTheCameraShows() throws {
        let camera = VideoFrame(width: 640, height: 360, color: Self.red)
        let background = VideoFrame(width: 640, height: 360, color: Self.green)
        let values = (0..<144).flatMap { _ in (0..<256).map { $0 < 128 ? UInt8(255) : 0 } }
        let mask = try #require(PersonMask(width: 256, height: 144, values: values))
        let out = BackgroundBlender.blend(camera, over: background, mask: mask)
        for x in stride(from: 0, to: 310, by: 7) { #expect(out.pixel(x: x, y: 180) == Self.red, "x \(x)") }
        for x in stride(from: 330, to: 640, by: 7) { #expect(out.pixel(x: x, y: 180) == Self.green, "x \(x)") }
        #expect(out.pixel(x: 320, y: 180) != Self.red && out.pixel(x: 320, y: 180) != Self.green, "the edge is feathered")
    }

    @Test func aBackgroundOfAnotherSizeLeavesTheCameraAsItIs() {
        let camera = VideoFrame(width: 64, height: 36, color: Self.red)
        let out = BackgroundBlender.blend(camera, over: VideoFrame(width: 32, height: 18, color: Self.green), mask: PersonMask(width: 4, height: 4, filledWith: 0))
        #expect(out == camera)
    }

    @Test func theSoftThresholdFeathersBetweenThreeAndSevenTenths() {
        #expect(BackgroundBlender.opacity[0] == 0 && BackgroundBlender.opacity[76] == 0)
        #expect(BackgroundBlender.opacity[128] > 96 && BackgroundBlender.opacity[128] < 160)
        #expect(BackgroundBlender.opacity[179] == 256 && BackgroundBlender.opacity[255] == 256)
    }
}
