import Decode
import Foundation
import Ingest
import Media
import TestSupport
import Testing

/// The decoders on streams made by ffmpeg in the test: VP8 in IVF, H.264 Annex B, and Opus.
@Suite struct DecoderTests {
    /// Frames of an IVF file (a 32-byte header, then 12-byte frame headers).
    static func ivfFrames(_ path: String) throws -> [[UInt8]] {
        let data = try #require(FileManager.default.contents(atPath: path)).map { $0 }
        var frames: [[UInt8]] = []
        var offset = 32
        while offset + 12 <= data.count {
            let size = Int(data[offset]) | Int(data[offset + 1]) << 8 | Int(data[offset + 2]) << 16 | Int(data[offset + 3]) << 24
            offset += 12
            guard offset + size <= data.count else { break }
            frames.append(Array(data[offset..<offset + size]))
            offset += size
        }
        return frames
    }

    static func frame(_ data: [UInt8], codec: TrackInfo.Codec, key: Bool, time: Double) -> EncodedFrame {
        EncodedFrame(track: TrackInfo(ssrc: 1, participantID: "p", kind: .video, codec: codec, payloadType: 96, clockRate: 90_000),
                     data: data, isKeyframe: key, rtpTimestamp: Int64(time * 90_000), mediaTime: time, lostBefore: 0,
                     sequenceRange: 0...0)
    }

    @Test func vp8DecodesAndFollowsAResolutionChange() throws {
        let directory = try TemporaryDirectory(prefix: "vp8")
        // 10 frames at 320x240, then 10 at 160x120, each part starting with a keyframe.
        for (name, size) in [("a", "320x240"), ("b", "160x120")] {
            let run = try Tool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=s=\(size):r=30", "-frames:v", "10",
                                              "-c:v", "libvpx", "-g", "30", directory.file("\(name).ivf")])
            #expect(run.status == 0, "\(run.standardError)")
        }
        let decoder = try VideoTrackDecoder(codec: .vp8)
        var sizes: [String] = []
        for (index, data) in try (Self.ivfFrames(directory.file("a.ivf")) + Self.ivfFrames(directory.file("b.ivf"))).enumerated() {
            for picture in decoder.decode(Self.frame(data, codec: .vp8, key: index % 10 == 0, time: Double(index) / 30)) {
                sizes.append("\(picture.width)x\(picture.height)")
                #expect(abs(picture.mediaTime - Double(index) / 30) < 1e-9)
            }
        }
        #expect(sizes == Array(repeating: "320x240", count: 10) + Array(repeating: "160x120", count: 10))
        #expect(decoder.statistics.resolutions == ["320x240", "160x120"])
        #expect(decoder.statistics.decodeErrors == 0)
    }

    @Test func h264DecodesWithResolutionChangeAndKeepsMediaTimes() throws {
        let directory = try TemporaryDirectory(prefix: "h264")
        var accessUnits: [[UInt8]] = []
        for (name, size) in [("a", "320x240"), ("b", "176x144")] {
            let path = directory.file("\(name).h264")
            let run = try Tool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=s=\(size):r=30", "-frames:v", "8",
                                              "-c:v", "libx264", "-bf", "0", "-g", "30", "-x264-params", "aud=1",
                                              "-bsf:v", "h264_mp4toannexb", "-f", "h264", path])
            #expect(run.status == 0, "\(run.standardError)")
            // Split at access unit delimiters (NAL type 9).
            let data = try #require(FileManager.default.contents(atPath: path)).map { $0 }
            var starts: [Int] = []
            var index = 0
            while index + 4 < data.count {
                if data[index] == 0, data[index + 1] == 0, data[index + 2] == 1, data[index + 3] & 0x1F == 9 {
                    starts.append(index > 0 && data[index - 1] == 0 ? index - 1 : index)
                }
                index += 1
            }
            for (position, start) in starts.enumerated() {
                accessUnits.append(Array(data[start..<(position + 1 < starts.count ? starts[position + 1] : data.count)]))
            }
        }
        #expect(accessUnits.count == 16)
        let decoder = try VideoTrackDecoder(codec: .h264)
        var pictures: [VideoFrame] = []
        for (index, unit) in accessUnits.enumerated() {
            pictures += decoder.decode(Self.frame(unit, codec: .h264, key: index % 8 == 0, time: Double(index) / 30))
        }
        #expect(pictures.count == 16)
        #expect(pictures.map { "\($0.width)x\($0.height)" } == Array(repeating: "320x240", count: 8) + Array(repeating: "176x144", count: 8))
        #expect(pictures.enumerated().allSatisfy { abs($0.element.mediaTime - Double($0.offset) / 30) < 1e-9 })
    }

    @Test func aDamagedFrameIsAnErrorAndDecodingWaitsForAKeyframe() throws {
        let decoder = try VideoTrackDecoder(codec: .vp8)
        #expect(decoder.decode(Self.frame([0xFF, 0xFF, 0xFF, 0x00], codec: .vp8, key: false, time: 0)).isEmpty)
        #expect(decoder.statistics.decodeErrors == 1)
        #expect(decoder.decode(Self.frame([0x31, 0x00, 0x00], codec: .vp8, key: false, time: 0.03)).isEmpty)
        #expect(decoder.statistics.framesSkipped == 1)
    }

    @Test func opusDecodesToFortyEightKilohertzAndConcealsLoss() throws {
        let directory = try TemporaryDirectory(prefix: "opus")
        let path = directory.file("tone.opus")
        let run = try Tool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:r=48000", "-t", "0.2", "-c:a", "libopus",
                                          "-b:a", "64k", "-frame_duration", "20", path])
        #expect(run.status == 0, "\(run.standardError)")
        // Read the Ogg pages' packets with ffprobe's help: dump raw packets via -f data.
        let raw = directory.file("packets.txt")
        let dump = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_packets", "-show_data", "-of", "json", path])
        #expect(dump.status == 0)
        try dump.standardOutput.write(toFile: raw, atomically: true, encoding: .utf8)
        let object = try JSONSerialization.jsonObject(with: Data(dump.standardOutput.utf8)) as? [String: Any]
        let packets = try #require(object?["packets"] as? [[String: Any]]).compactMap { $0["data"] as? String }.map(Self.hexDump)
        #expect(packets.count >= 10)

        let decoder = try AudioTrackDecoder(channels: 2)
        func frame(_ index: Int, lostBefore: Int = 0) -> EncodedFrame {
            EncodedFrame(track: TrackInfo(ssrc: 2, participantID: "p", kind: .audio, codec: .opus, payloadType: 111, clockRate: 48_000),
                         data: packets[index], isKeyframe: true, rtpTimestamp: Int64(index * 960), mediaTime: Double(index) * 0.02,
                         lostBefore: lostBefore, sequenceRange: Int64(index)...Int64(index))
        }
        var chunks = decoder.decode(frame(0)) + decoder.decode(frame(1))
        // Packets 2 and 3 are lost; packet 4 arrives.
        chunks += decoder.decode(frame(4, lostBefore: 2))
        #expect(chunks.map(\.channels).allSatisfy { $0 == 2 })
        #expect(chunks.map(\.frameCount) == [960, 960, 1920, 960])
        #expect(chunks[2].isConcealed)
        #expect(abs(chunks[2].mediaTime - (0.04 - AudioTrackDecoder.encoderLookahead)) < 1e-9)
        #expect(abs(chunks[0].mediaTime + AudioTrackDecoder.encoderLookahead) < 1e-9, "placed earlier by libopus's lookahead")
        #expect(decoder.statistics.samplesConcealed == 1920)
        // The concealed audio is not silence: it continues the tone.
        #expect(chunks[2].samples.map { abs($0) }.max() ?? 0 > 0.01)
    }

    /// ffprobe's -show_data hex dump ("00000000: 7801 ..  text") as bytes.
    static func hexDump(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count > 1 else { continue }
            for word in parts.dropFirst().prefix(8) where word.count == 4 || word.count == 2 {
                guard word.allSatisfy(\.isHexDigit) else { break }
                var index = word.startIndex
                while index < word.endIndex {
                    let next = word.index(index, offsetBy: 2)
                    if let byte = UInt8(word[index..<next], radix: 16) { out.append(byte) }
                    index = next
                }
            }
        }
        return out
    }
}
