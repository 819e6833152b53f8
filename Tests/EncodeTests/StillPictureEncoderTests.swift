import Encode
import Foundation
import Media
import TestSupport
import Testing

/// `StillPictureEncoder`, the thumbnails' and captures' encoder: a whole JPEG, small, that
/// ffprobe reads at the asked width with the source's shape; a PNG of the asked size.
@Suite struct StillPictureEncoderTests {
    @Test func aPictureBecomesAJPEGOfTheAskedWidth() throws {
        // A 1280x720 picture: red on the left half, blue on the right (BT.601 limited range).
        var picture = VideoFrame(width: 1280, height: 720, color: YUVColor(y: 81, u: 90, v: 240))
        for row in 0..<360 {
            for column in 320..<640 { picture.u[row * 640 + column] = 240; picture.v[row * 640 + column] = 110 }
        }
        for row in 0..<720 { for column in 640..<1280 { picture.y[row * 1280 + column] = 41 } }
        let encoder = StillPictureEncoder(width: 320)
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

    @Test func aPictureBecomesAPNGOfTheAskedSizeWithItsColours() throws {
        var picture = VideoFrame(width: 1280, height: 720, color: YUVColor(red: 0x20, green: 0xC0, blue: 0x40))
        let encoder = StillPictureEncoder(format: .png, width: 640, height: 360)
        let png = try picture.withPlanarImage { try encoder.encode($0) }
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(png.prefix(4))")
        let (red, green, blue) = try PNGPixels.pixel(of: png, x: 320, y: 180)
        #expect(abs(red - 0x20) < 12 && abs(green - 0xC0) < 12 && abs(blue - 0x40) < 12, "\((red, green, blue))")
        let directory = try TemporaryDirectory(prefix: "png")
        let path = directory.file("still.png")
        try Data(png).write(to: URL(fileURLWithPath: path))
        let probe = try MediaProbe.probe(path)
        #expect(probe.streams.first?.codecName == "png" && probe.streams.first?.width == 640 && probe.streams.first?.height == 360)
        let sized = StillPictureEncoder(width: nil, height: 240).size(forWidth: 1280, height: 720)
        #expect(sized.width == 426 && sized.height == 240, "\(sized)")
    }
}
