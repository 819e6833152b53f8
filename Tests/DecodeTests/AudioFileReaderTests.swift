import Decode
import Foundation
import Platform
import TestSupport
import Testing

/// `AudioFileReader` on a WebM Opus file ffmpeg makes with no packets from 1 s to 3 s (a
/// per-participant track whose sender was muted): following its timestamps, the gap is read as
/// silence and the tone after it comes at 3 s; without, the samples follow one another.
@Suite struct AudioFileReaderTests {
    static func toneWithAGap(in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("gap.webm")
        let made = try Subprocess.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:d=4:sample_rate=48000",
                                                 "-af", "aselect='not(between(t,1,3))'", "-c:a", "libopus", path])
        try #require(made.succeeded, "\(made.standardError)")
        return path
    }

    static func readAll(_ reader: AudioFileReader) throws -> [Float] {
        var samples: [Float] = []
        while let block = try reader.next() {
            #expect(block.count <= 16_000, "a block is at most a second")
            samples += block
        }
        return samples
    }

    /// Root mean square of `samples` from `start` to `end` seconds at 16 kHz (the sine is 1/8 full scale: 0.088).
    static func level(_ samples: [Float], from start: Double, to end: Double) -> Float {
        let slice = samples[min(samples.count, Int(start * 16_000))..<min(samples.count, Int(end * 16_000))]
        guard !slice.isEmpty else { return 0 }
        return (slice.reduce(0) { $0 + $1 * $1 } / Float(slice.count)).squareRoot()
    }

    @Test func aGapInTheTimestampsIsReadAsSilence() throws {
        let directory = try TemporaryDirectory(prefix: "reader-gap")
        let path = try Self.toneWithAGap(in: directory)
        let placed = try Self.readAll(try AudioFileReader(path: path, rate: 16_000, followingTimestamps: true))
        #expect(abs(Double(placed.count) / 16_000 - 4) < 0.05, "\(placed.count) samples")
        #expect(Self.level(placed, from: 0.1, to: 0.9) > 0.05)
        #expect(Self.level(placed, from: 1.1, to: 2.9) == 0, "the gap is silence")
        #expect(Self.level(placed, from: 3.1, to: 3.9) > 0.05, "the tone after the gap is at its time")

        let packed = try Self.readAll(try AudioFileReader(path: path, rate: 16_000))
        #expect(abs(Double(packed.count) / 16_000 - 2) < 0.05, "without: the two seconds of tone alone, \(packed.count) samples")
        #expect(Self.level(packed, from: 1.1, to: 1.9) > 0.05)
    }
}
