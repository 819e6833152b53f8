import RTP
import TestKit
import Testing

@Suite struct OpusDepacketizerTests {
    @Test(arguments: [
        // Witnessed: ffmpeg's libopus at 48 kb/s sends CELT 20 ms stereo frames (TOC 0xf8 / 0xfc style).
        ("witnessed CELT 20 ms", "f8b4f011", 960, 1, false),
        ("SILK 10 ms mono", "00aa", 480, 1, false),
        ("SILK 60 ms stereo", "1caa", 2880, 1, true),
        ("hybrid 20 ms, two equal frames", "6daaaa", 1920, 2, true),
        ("CELT 2.5 ms, code 2", "82 01 aa", 240, 2, false),
        ("CELT 20 ms, code 3 with 6 frames", "fb 06 aa", 5760, 6, false),
    ])
    func tocBytesAreRead(name: String, hex: String, samples: Int, frames: Int, stereo: Bool) throws {
        let info = try OpusPacketInfo(bytes(hex))
        #expect(info.samplesPerChannel == samples, "\(name)")
        #expect(info.frameCount == frames)
        #expect(info.isStereo == stereo)
        var depacketizer = OpusDepacketizer()
        let result = try depacketizer.depacketize(bytes(hex))
        #expect(result.data == bytes(hex))
        #expect(result.isFrameStart && result.isKeyframe)
    }

    @Test(arguments: [
        ("empty", ""),
        ("code 1 with an odd length", "01aa"),
        ("code 2 without a length", "02"),
        ("code 3 without a count", "03"),
        ("code 3 with no frames", "0300"),
        ("more than 120 ms", "fb 07 aa"),
    ])
    func malformedPacketsAreRejected(name: String, hex: String) {
        #expect(throws: RTPParseError.self, "\(name)") { try OpusPacketInfo(bytes(hex)) }
    }
}
