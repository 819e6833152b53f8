@testable import API
import Testing

/// `StillPictureSize`: a JPEG's or PNG's size from its header, and nothing from anything else.
@Suite struct StillPictureSizeTests {
    @Test func headersGiveTheirSizes() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0x40, 0, 0, 0, 0xB4]
        #expect(StillPictureSize.of(png).map { [$0.width, $0.height] } == [320, 180])
        // SOI, an APP0 of 16 bytes, then SOF0: length 17, precision 8, height 480, width 854.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + [UInt8](repeating: 0, count: 14) + [0xFF, 0xC0, 0, 17, 8, 0x01, 0xE0, 0x03, 0x56]
        #expect(StillPictureSize.of(jpeg).map { [$0.width, $0.height] } == [854, 480])
        #expect(StillPictureSize.of(Array(jpeg.prefix(24))) == nil, "cut short")
        #expect(StillPictureSize.of([0x47, 0x49, 0x46]) == nil)
    }

    /// Random bytes behind both signatures: an answer or nil, never a read past the end.
    @Test func randomBytesNeverCrashIt() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let signature: [UInt8] = Bool.random(using: &generator) ? [0xFF, 0xD8] : [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            var bytes = signature + (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if bytes.count > 3 && Bool.random(using: &generator) { bytes[2] = 0xFF }
            if let size = StillPictureSize.of(bytes) { #expect(size.width > 0 && size.height > 0) }
        }
    }
}
