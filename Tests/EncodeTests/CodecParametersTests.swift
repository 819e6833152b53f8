import TestSupport
import Testing

@testable import Encode

@Suite struct CodecParametersTests {
    /// RFC 6381 names for an HLS multivariant playlist: the recording encoder's H.264 and AAC.
    @Test func theEncodersStreamsAreNamedAsRFC6381Does() throws {
        let streams = try EncodedStreams(seconds: 0.2)
        let video = streams.video.parameters.rfc6381Codec ?? ""
        #expect(video.hasPrefix("avc1.") && video.count == 11, "\(video)")
        #expect(streams.audio.parameters.rfc6381Codec == "mp4a.40.2")
    }

    /// profile_idc, constraint flags, level_idc from avcC or from an SPS in Annex B; nothing from junk.
    @Test func theH264ProfileComesFromEitherForm() {
        #expect(CodecParameters.h264ProfileLevel(extradata: [1, 0x64, 0x00, 0x1F, 0xFF]) == [0x64, 0x00, 0x1F])
        #expect(CodecParameters.h264ProfileLevel(extradata: [0, 0, 0, 1, 0x67, 0x42, 0xC0, 0x1E, 0x95]) == [0x42, 0xC0, 0x1E])
        #expect(CodecParameters.h264ProfileLevel(extradata: [0, 0, 1, 0x68, 0xCE, 0, 0, 1, 0x67, 0x4D, 0x40, 0x28]) == [0x4D, 0x40, 0x28])
        #expect(CodecParameters.h264ProfileLevel(extradata: []) == nil)
        #expect(CodecParameters.h264ProfileLevel(extradata: [0, 0, 1, 0x67, 0x42]) == nil)
        #expect(CodecParameters.h264ProfileLevel(extradata: [0, 0, 1]) == nil)
    }
}
