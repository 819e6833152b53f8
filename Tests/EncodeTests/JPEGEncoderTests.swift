import Encode
import Foundation
import Media
import TestSupport
import Testing

/// `JPEGEncoder`, the thumbnails' encoder: a whole JPEG, small, that ffprobe reads at the asked
/// width with the source's shape.
@Suite struct JPEGEncoderTests {
    @Test func aPictureBecomesAJPEGOfTheAskedWidth() throws {
        // A 1280x720 picture: red on the left half, blue on the right (BT.601 limited range).
        var picture = VideoFrame(width: 1280, height: 720, color: YUVColor(y: 81, u: 90, v: 240))
        for row in 0..<360 {
            for column in 320..<640 { picture.u[row * 640 + column] = 240; picture.v[row * 640 + column] = 110 }
        }
        for row in 0..<720 { for column in 640..<1280 { picture.y[row * 1280 + column] = 41 } }
        let encoder = JPEGEncoder(width: 320)
        let jpeg = try picture.withPlanarImage { try encoder.encode($0) }
        #expect(jpeg.starts(with: [0xFF, 0xD8]) && jpeg.suffix(2) == [0xFF, 0xD9], "\(jpeg.prefix(4))")
        #expect(jpeg.count < 20_000, "\(jpeg.count) bytes")
        let directory = try TemporaryDirectory(prefix: "jpeg")
        let path = directory.file("still.jpg")
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
        let probe = try MediaProbe.probe(path)
        #expect(probe.streams.first?.codecName == "mjpeg" && probe.streams.first?.width == 320 && probe.streams.first?.height == 180,
                "\(probe.streams)")
        // A second picture of the same size reuses the encoder.
        let again = try picture.withPlanarImage { try encoder.encode($0) }
        #expect(again.count > 100)
    }
}
