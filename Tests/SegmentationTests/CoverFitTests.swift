import Media
import Testing

@testable import Segmentation

@Suite struct CoverFitTests {
    /// A 4:3 picture fitted to 16:9 loses its top and bottom eighths, not its shape: a white
    /// band in its top 60 rows is cut away, and the middle is scaled 1:1.
    @Test func aTallerPictureLosesItsTopAndBottom() {
        var image = VideoFrame(width: 640, height: 480, color: YUVColor(y: 80, u: 128, v: 128))
        for index in 0..<(640 * 60) { image.y[index] = 235 }
        let fitted = CoverFit.fit(image, width: 640, height: 360)
        #expect(fitted.width == 640 && fitted.height == 360)
        #expect(fitted.y.allSatisfy { $0 == 80 }, "the white band is cut off")
    }

    @Test func aWiderPictureLosesItsSides() {
        var image = VideoFrame(width: 1280, height: 360, color: YUVColor(y: 80, u: 128, v: 128))
        for row in 0..<360 { for column in 0..<320 { image.y[row * 1280 + column] = 235 } }
        let fitted = CoverFit.fit(image, width: 320, height: 180)
        #expect(fitted.width == 320 && fitted.height == 180 && fitted.y.allSatisfy { $0 == 80 })
    }

    @Test func anySizeFitsWithoutCrashing() {
        for (width, height) in [(2, 2), (2, 1000), (1000, 2), (640, 360)] {
            let fitted = CoverFit.fit(VideoFrame(width: width, height: height), width: 640, height: 360)
            #expect(fitted.width == 640 && fitted.height == 360 && fitted.y.count == 640 * 360 && fitted.u.count == 320 * 180)
        }
    }
}
