import Media
import Testing

@testable import Segmentation

@Suite struct BlurredPictureTests {
    @Test func aFlatPictureStaysFlat() {
        let grey = VideoFrame(width: 640, height: 360, color: YUVColor(y: 120, u: 100, v: 150))
        #expect(BlurredPicture.of(grey) == grey)
    }

    /// Fine detail (a checkerboard of 4-pixel squares) is gone; the picture's average stays.
    @Test func detailIsBlurredAway() {
        var board = VideoFrame(width: 640, height: 360)
        for row in 0..<360 { for column in 0..<640 { board.y[row * 640 + column] = (row / 4 + column / 4) % 2 == 0 ? 40 : 200 } }
        let blurred = BlurredPicture.of(board)
        #expect(blurred.width == 640 && blurred.height == 360)
        let inner = (20..<340).flatMap { row in (20..<620).map { blurred.y[row * 640 + $0] } }
        #expect(inner.allSatisfy { (110...130).contains($0) }, "range \(inner.min() ?? 0)...\(inner.max() ?? 0)")
    }

    @Test func oddAndTinyPicturesKeepTheirSize() {
        for (width, height) in [(1, 1), (3, 5), (7, 2), (641, 359)] {
            let frame = VideoFrame(width: width, height: height, color: .black)
            let blurred = BlurredPicture.of(frame)
            #expect(blurred.width == width && blurred.y.count == frame.y.count && blurred.u.count == frame.u.count)
        }
    }
}
