import Fixture
import Foundation
import JobSpec
import Media
import Outputs
import Pipeline
import TestSupport
import Testing

/// Time runs whether anyone sends or not: a capture with a 10-second hole where nobody sends
/// records a continuous 30 fps output with silence in the hole.
@Suite struct SilentRoomTests {
    /// The example fixture played three times as one room (18.5 s), with every datagram between
    /// 4 s and 14 s removed: the senders' clocks run on, nothing arrives.
    static func fixtureWithAHole() throws -> Fixture {
        let fixture = try Fixture(directory: TestFixtures.path("example"))
        var iterator = FixtureReplay(fixture: fixture, pacing: .asFastAsPossible, passes: 3).makeIterator()
        var packets: [Fixture.Packet] = []
        while let (_, packet) = iterator.next() {
            if packet.arrival < 4 || packet.arrival >= 14 { packets.append(packet) }
        }
        return fixture.with(packets: packets)
    }

    @Test func aHoleInTheCaptureIsRecordedAsTimeWithSilence() throws {
        let fixture = try Self.fixtureWithAHole()
        #expect(fixture.packets.contains { $0.arrival > 14 } && !fixture.packets.contains { $0.arrival >= 4 && $0.arrival < 14 })
        let directory = try TemporaryDirectory(prefix: "silent-room")
        let pipeline = try RecordingPipeline(config: RecordingConfig())
        let path = directory.file("out.mp4")
        pipeline.add(sink: try MP4FileOutput(path: path, streams: pipeline.streams))
        let source = FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible))
        try pipeline.run(source)

        // Video: one frame every 1/30 s from start to end, across the hole.
        let video = try MediaProbe.packets(path, stream: "v:0").map(\.time).sorted()
        let duration = fixture.captureDuration
        #expect(abs(Double(video.count) - duration * 30) <= 2, "\(video.count) frames for \(duration) s")
        let videoGaps = zip(video, video.dropFirst()).map { $1 - $0 }
        #expect(videoGaps.allSatisfy { abs($0 - 1.0 / 30) < 0.002 }, "largest gap \(videoGaps.max() ?? 0)")
        // Audio: one AAC frame every 1024 samples, no gap either.
        let audio = try MediaProbe.packets(path, stream: "a:0").map(\.time).sorted()
        let audioGaps = zip(audio, audio.dropFirst()).map { $1 - $0 }
        #expect(audioGaps.allSatisfy { abs($0 - 1024.0 / 48_000) < 0.001 }, "largest gap \(audioGaps.max() ?? 0)")
        #expect(abs((audio.last ?? 0) - (video.last ?? 0)) < 0.1)
        // A full decode is clean.
        let decode = try Tool.decodeFully(path)
        #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")

        // The tones before and after the hole, silence in it (a lost packet is concealed; ten
        // seconds of nobody sending is not a loss).
        let samples = try MediaSamples.monoAudio(of: path)
        let before = samples[(1 * 48_000)..<(3 * 48_000)]
        let hole = samples[(6 * 48_000)..<(12 * 48_000)]
        let after = samples[(15 * 48_000)..<(17 * 48_000)]
        #expect(Goertzel.prominence(of: before, frequency: 523) > 15)
        #expect(Goertzel.prominence(of: after, frequency: 523) > 15)
        let rms = (hole.reduce(0) { $0 + Double($1 * $1) } / Double(hole.count)).squareRoot()
        #expect(rms < 0.001, "the hole's RMS is \(rms)")
        // The picture holds: the last frame before the hole, with each tile's colour.
        let picture = try MediaSamples.frame(of: path, at: 9, width: 1280, height: 720)
        let erin = YUVColor(rgb: 0x8030C0)
        let seen = picture.pixel(x: 320 / 2 + 8, y: 200)
        #expect(seen.distance(to: erin) <= 16, "the middle of the hole shows \(seen)")
        // After the hole, the receivers asked for keyframes.
        #expect(source.feedback.pictureLossIndications[7001, default: 0] >= 2)
    }
}
