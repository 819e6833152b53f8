import Decode
import Fixture
import Foundation
import Ingest
import Pipeline
import Platform

/// `bench/ingest`: packets per second through parse → jitter buffer → depacketize (no
/// decoding), and decode frames per second, beside ffmpeg decoding the same frames with the
/// same libraries.
enum IngestBench {
    static func run(fixtureDirectory: String, passes: Int) throws {
        let fixture = try Fixture(directory: fixtureDirectory)
        let tracks = fixture.trackInfos
        let packetCount = fixture.packets.count * passes

        // 1. Receive path without decoding, the fixture replayed `passes` times.
        var frames = 0
        let ingestSeconds = CPUTime.measure {
            for _ in 0..<passes {
                var session = IngestSession(tracks: tracks)
                for packet in fixture.packets {
                    for case .frame in session.receive(packet.payload, arrival: packet.arrival) { frames += 1 }
                }
                for case .frame in session.finish() { frames += 1 }
            }
        }
        let packetsPerSecond = Double(packetCount) / ingestSeconds
        let realtimeRate = Double(fixture.packets.count) / fixture.captureDuration
        print(String(format: "ingest: %d packets (%d passes) in %.3f CPU s: %.0f packets/s, %.0f× the fixture's real-time rate of %.0f packets/s",
                     packetCount, passes, ingestSeconds, packetsPerSecond, packetsPerSecond / realtimeRate, realtimeRate))

        // 2. Collect each video track's frames once, and write them for ffmpeg.
        var session = IngestSession(tracks: tracks)
        var encoded: [UInt32: [EncodedFrame]] = [:]
        for packet in fixture.packets {
            for case .frame(let frame) in session.receive(packet.payload, arrival: packet.arrival) where frame.track.kind.isVideo {
                encoded[frame.track.ssrc, default: []].append(frame)
            }
        }
        let work = NSTemporaryDirectory() + "revue-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }

        let decodePasses = max(1, passes / 10)
        for track in tracks where track.kind.isVideo {
            guard let trackFrames = encoded[track.ssrc], !trackFrames.isEmpty else { continue }
            var decoded = 0
            let revueSeconds = try CPUTime.measure {
                for _ in 0..<decodePasses {
                    let decoder = try VideoTrackDecoder(codec: track.codec)
                    for frame in trackFrames { decoded += decoder.decode(frame).count }
                }
            }
            // The same frames, repeated, in a file ffmpeg reads.
            let path: String
            let arguments: [String]
            switch track.codec {
            case .vp8:
                path = work + "/\(track.ssrc).ivf"
                try ElementaryStream.writeIVF(trackFrames.map(\.data), repeats: decodePasses, to: path)
                arguments = ["-v", "error", "-threads", "1", "-c:v", "vp8", "-i", path, "-f", "null", "-"]
            default:
                path = work + "/\(track.ssrc).h264"
                try ElementaryStream.writeAnnexB(trackFrames.map(\.data), repeats: decodePasses, to: path)
                arguments = ["-v", "error", "-threads", "1", "-i", path, "-f", "null", "-"]
            }
            let before = CPUTime.ofChildren()
            let result = try Subprocess.run("ffmpeg", ["-nostdin"] + arguments)
            let ffmpegSeconds = CPUTime.ofChildren() - before
            guard result.succeeded else { throw BenchError("ffmpeg failed: \(result.standardError)") }
            let revueFPS = Double(decoded) / revueSeconds
            let ffmpegFPS = Double(trackFrames.count * decodePasses) / ffmpegSeconds
            print(String(format: "decode %@ %@: Revue %.0f frames/s (%.3f CPU s), ffmpeg %.0f frames/s (%.3f CPU s), Revue/ffmpeg speed %.2f",
                         track.codec.rawValue, trackFrames.first.map { _ in "\(track.ssrc)" } ?? "", revueFPS, revueSeconds,
                         ffmpegFPS, ffmpegSeconds, revueFPS / ffmpegFPS))
        }
    }
}

/// Writes codec frames as files ffmpeg can read.
enum ElementaryStream {
    /// IVF (VP8): a 32-byte file header, then a 12-byte header per frame.
    static func writeIVF(_ frames: [[UInt8]], repeats: Int, to path: String) throws {
        var data: [UInt8] = Array("DKIF".utf8) + le16(0) + le16(32) + Array("VP80".utf8) + le16(640) + le16(360)
            + le32(30) + le32(1) + le32(UInt32(frames.count * repeats)) + le32(0)
        var index: UInt64 = 0
        for _ in 0..<repeats {
            for frame in frames {
                data += le32(UInt32(frame.count)) + le32(UInt32(index & 0xFFFF_FFFF)) + le32(UInt32(index >> 32)) + frame
                index += 1
            }
        }
        try Data(data).write(to: URL(fileURLWithPath: path))
    }

    /// H.264 Annex B: the access units back to back.
    static func writeAnnexB(_ frames: [[UInt8]], repeats: Int, to path: String) throws {
        var data: [UInt8] = []
        for _ in 0..<repeats { for frame in frames { data += frame } }
        try Data(data).write(to: URL(fileURLWithPath: path))
    }

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
