import Decode
import Encode
import Foundation
import Outputs
import TestSupport
import Testing

/// A per-participant recording's audio as its transcript reads it: a `TrackFile` of Opus frames
/// (20 ms each, as a participant sends them) with one frame lost at 2 s and nothing from 5 s to
/// 7 s (a muted sender), read by `AudioFileReader` following its timestamps: 10 s long, the
/// hole silent, the tone after it at its time, nothing drifting over the file.
@Suite struct TrackAudioTests {
    @Test func aTrackWithALostFrameAndAHoleReadsOnItsClock() throws {
        let directory = try TemporaryDirectory(prefix: "track-audio")
        let encoder = try OpusEncoder(channels: 1, bitrate: 32_000)
        func frame(_ index: Int) throws -> [UInt8] {
            try encoder.encode((0..<960).map { Float(0.3 * sin(2 * Double.pi * 440 * Double(index * 960 + $0) / 48_000)) })
        }
        let file = try TrackFile(path: directory.file("a-audio-1.webm"), codec: .opus, channels: 1, firstFrame: try frame(0), start: 4)
        for index in 0..<500 where index != 100 && !(250..<350).contains(index) {
            try file.write(try frame(index), at: Double(index) * 0.02, keyframe: true)
        }
        try file.finish()

        let reader = try AudioFileReader(path: file.path, rate: 16_000, followingTimestamps: true)
        var samples: [Float] = []
        while let block = try reader.next() { samples += block }
        func level(_ start: Double, _ end: Double) -> Float {
            let slice = samples[min(samples.count, Int(start * 16_000))..<min(samples.count, Int(end * 16_000))]
            return slice.isEmpty ? 0 : (slice.reduce(0) { $0 + $1 * $1 } / Float(slice.count)).squareRoot()
        }
        #expect(abs(Double(samples.count) / 16_000 - 10) < 0.03, "\(samples.count) samples: the lost frame and the hole kept their time")
        #expect(level(5.05, 6.95) == 0, "the hole is silence")
        for (start, end) in [(0.5, 1.9), (2.1, 4.9), (7.1, 7.9), (9.0, 9.9)] {
            #expect(level(start, end) > 0.15, "the tone from \(start) to \(end) s: \(level(start, end))")
        }
        // Where the tone comes back: within a frame of 7 s, as written.
        let back = (Int(6.5 * 16_000)..<samples.count).first { abs(samples[$0]) > 0.05 }.map { Double($0) / 16_000 } ?? 0
        #expect(abs(back - 7.0) < 0.02, "the tone is back at \(back) s")
    }
}
