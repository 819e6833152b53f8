import Foundation
import Media
import Outputs
import TestSupport
import Testing

/// `TrackFile`: what it reads from a track's first frame (RFC 6386 §9.1, H.264's parameter
/// sets, RFC 7845's OpusHead), and that any bytes a participant sends give an error or a file,
/// never a crash.
@Suite struct TrackFileTests {
    /// A VP8 keyframe's first ten bytes: the frame tag (keyframe, shown), the start code, 14-bit
    /// width and height with their scaling bits.
    static func vp8Keyframe(width: Int, height: Int, scaling: UInt8 = 0) -> [UInt8] {
        [0x50, 0x42, 0x00, 0x9D, 0x01, 0x2A, UInt8(width & 0xFF), UInt8(width >> 8) | scaling << 6, UInt8(height & 0xFF), UInt8(height >> 8)]
            + [UInt8](repeating: 0x11, count: 40)
    }

    @Test func aVP8KeyframeGivesItsSize() {
        let size = TrackFile.vp8KeyframeSize(Self.vp8Keyframe(width: 1280, height: 720, scaling: 2))
        #expect(size?.width == 1280 && size?.height == 720)
        // An interframe (the tag's lowest bit set), a wrong start code, a short frame: no size.
        var interframe = Self.vp8Keyframe(width: 640, height: 360)
        interframe[0] |= 1
        #expect(TrackFile.vp8KeyframeSize(interframe) == nil)
        var wrongCode = Self.vp8Keyframe(width: 640, height: 360)
        wrongCode[4] = 0x02
        #expect(TrackFile.vp8KeyframeSize(wrongCode) == nil)
        #expect(TrackFile.vp8KeyframeSize([0x50, 0x42, 0x00, 0x9D, 0x01, 0x2A, 0x80]) == nil)
        #expect(TrackFile.vp8KeyframeSize(Self.vp8Keyframe(width: 0, height: 360)) == nil)
    }

    @Test func h264ParameterSetsAreTheSPSAndPPS() {
        let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x1F, 0xDA, 0x01]
        let pps: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]
        let idr: [UInt8] = [0x65, 0x88, 0x84, 0x00]
        let frame = [0, 0, 0, 1] + sps + [0, 0, 1] + pps + [0, 0, 0, 1] + idr
        #expect(TrackFile.h264ParameterSets(frame) == [0, 0, 0, 1] + sps + [0, 0, 0, 1] + pps)
        // Without a PPS there is nothing to start a file with.
        #expect(TrackFile.h264ParameterSets([0, 0, 0, 1] + sps + [0, 0, 0, 1] + idr).isEmpty)
        #expect(TrackFile.h264ParameterSets([0, 0, 0, 1] + idr).isEmpty)
        #expect(TrackFile.h264ParameterSets([]).isEmpty)
    }

    /// A VP8 file from made-up frames: WebM, the keyframe's size, the frames' times from the
    /// first (the file's 0), and an interframe or a frame that does not start a file refused.
    @Test func aVP8TrackIsWebMFromItsFirstFrame() throws {
        let directory = try TemporaryDirectory(prefix: "track-file")
        #expect(throws: OutputError.self) {
            try TrackFile(path: directory.file("no.webm"), codec: .vp8, channels: 1, firstFrame: [0x51, 0, 0, 0, 0, 0, 0, 0, 0, 0], start: 1)
        }
        let file = try TrackFile(path: directory.file("a.webm"), codec: .vp8, channels: 1, firstFrame: Self.vp8Keyframe(width: 320, height: 240),
                                 start: 2.5)
        #expect(file.pictureSize?.width == 320 && file.pictureSize?.height == 240)
        try file.write(Self.vp8Keyframe(width: 320, height: 240), at: 0, keyframe: true)
        try file.write([0x51, 0x01, 0x00, 0x22], at: 0.033, keyframe: false)
        // A time that does not move forward is written just after the one before.
        try file.write([0x51, 0x01, 0x00, 0x23], at: 0, keyframe: false)
        try file.finish()
        #expect(file.frames == 3 && abs(file.end - 2.534) < 1e-9 && file.start == 2.5)
        let packets = try MediaProbe.packets(file.path)
        #expect(packets.map(\.time) == [0, 0.033, 0.034], "\(packets)")
        #expect(packets.map(\.keyframe) == [true, false, false])
        #expect(try MediaProbe.probe(file.path).format.formatName?.contains("webm") == true)
    }

    @Test func opusHeadIsRFC7845s() {
        let head = TrackFile.opusHead(channels: 2)
        #expect(head.count == 19 && Array(head[0..<8]) == Array("OpusHead".utf8))
        #expect(head[8] == 1 && head[9] == 2 && head[10] == 0 && head[11] == 0)
        #expect(Array(head[12..<16]) == [0x80, 0xBB, 0x00, 0x00])
        #expect(TrackFile.opusHead(channels: 9)[9] == 2)
    }

    /// Random first frames and random frames after a good one, for each codec: every first
    /// frame either starts a file or is refused with an error, and a file that started takes any
    /// bytes and finishes. Counted, so the test fails if nothing was exercised.
    @Test func randomFramesGiveErrorsOrFilesNeverACrash() throws {
        let directory = try TemporaryDirectory(prefix: "track-fuzz")
        var generator = SeededGenerator(seed: 26_5)
        var started = 0, refused = 0, written = 0
        for round in 0..<300 {
            let codec = TrackCodec.allCases[round % TrackCodec.allCases.count]
            var first = (0..<Int.random(in: 0...200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if round % 4 == 0 && first.count > 10 {
                // Plausible starts too, so the parsers get past their first checks.
                first.replaceSubrange(0..<10, with: codec == .h264 ? [0, 0, 0, 1, 0x67, 0x42, 0xC0, 0x1F, 0, 1] : Self.vp8Keyframe(width: 64, height: 48)[0..<10])
                if codec == .h264 { first += [0, 0, 1, 0x68, 0xCE, 0x3C, 0x80, 0, 0, 1, 0x65, 0x88] }
            }
            _ = TrackFile.vp8KeyframeSize(first)
            _ = TrackFile.h264ParameterSets(first)
            do {
                let file = try TrackFile(path: directory.file("fuzz-\(round).\(TrackFile.fileExtension(for: codec))"), codec: codec, channels: 2,
                                         firstFrame: first, start: 0)
                started += 1
                for index in 0..<5 {
                    let bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                    try file.write(bytes, at: Double(index) * 0.02, keyframe: index == 0)
                    written += bytes.isEmpty ? 0 : 1
                }
                try file.finish()
            } catch {
                refused += 1
                #expect(!error.message.isEmpty)
            }
        }
        // Opus starts from any frame; most random video frames are refused.
        #expect(started >= 100 && refused >= 100 && written > 300, "started \(started), refused \(refused), written \(written)")
    }
}
