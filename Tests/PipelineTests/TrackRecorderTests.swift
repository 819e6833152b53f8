import Fixture
import Foundation
import Media
import Outputs
import Pipeline
import TestSupport
import Testing

/// Per-participant recordings of fixtures (`config.mode: "tracks"`, issue 26 item 5): each
/// participant's own picture and sound, in files that play, placed on the room's clock.
@Suite struct TrackRecorderTests {
    struct Recorded {
        let directory: TemporaryDirectory
        let manifest: TrackManifest
        let fixture: Fixture

        func path(_ track: TrackManifest.Track) -> String { directory.path + "/tracks/" + track.file }

        func track(_ file: String) throws -> TrackManifest.Track {
            try #require(manifest.tracks.first { $0.file == file }, "\(manifest.tracks.map(\.file))")
        }
    }

    static func record(_ fixtureName: String) throws -> Recorded {
        let directory = try TemporaryDirectory(prefix: "tracks")
        let fixture = try Fixture(directory: TestFixtures.path(fixtureName))
        let recorder = try TrackRecorder(directory: directory.path + "/tracks", e2ee: nil, roomID: fixtureName)
        try recorder.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible)))
        let manifest = try #require(TrackManifest.read(directory: directory.path + "/tracks"))
        #expect(manifest == recorder.manifest)
        return Recorded(directory: directory, manifest: manifest, fixture: fixture)
    }

    /// Erin (VP8, 523 Hz) and Frank (H.264, 784 Hz): four files, each with its participant's own
    /// colour or tone and nothing of the other's, each decoding without an error, as long as
    /// the fixture, at its sender's size and codec (nothing was transcoded).
    @Test func eachParticipantsTracksAreTheirOwn() throws {
        let recorded = try Self.record("example")
        #expect(recorded.manifest.complete && recorded.manifest.roomId == "example")
        #expect(Set(recorded.manifest.tracks.map(\.file)) == ["erin-video-1.webm", "erin-audio-1.webm", "frank-video-1.mkv", "frank-audio-1.webm"])
        for track in recorded.manifest.tracks {
            let probe = try MediaProbe.probe(recorded.path(track))
            #expect(track.complete && track.frames > 0)
            #expect(abs((probe.format.durationSeconds ?? 0) - (track.end - track.start)) < 0.1, "\(track.file): \(String(describing: probe.format.durationSeconds))")
            #expect(abs(track.end - recorded.fixture.captureDuration) < 0.15, "\(track.file) ends at \(track.end)")
            let decode = try Tool.decodeFully(recorded.path(track))
            #expect(decode.status == 0 && decode.standardError.isEmpty, "\(track.file): \(decode.standardError)")
        }
        let erin = try recorded.track("erin-video-1.webm"), frank = try recorded.track("frank-video-1.mkv")
        #expect(try MediaProbe.probe(recorded.path(erin)).video?.codecName == "vp8")
        #expect(try MediaProbe.probe(recorded.path(frank)).video?.codecName == "h264")
        #expect(erin.width == 640 && erin.height == 360 && frank.width == 640 && frank.height == 360)
        for (track, colour) in [(erin, YUVColor(rgb: 0x8030C0)), (frank, YUVColor(rgb: 0xE08020))] {
            let frame = try MediaSamples.frame(of: recorded.path(track), at: 3, width: 640, height: 360)
            for x in [128, 320, 512] {
                let seen = frame.pixel(x: x, y: 60)
                #expect(seen.distance(to: colour) <= 16, "\(track.file) at x \(x): \(seen), expected \(colour)")
            }
        }
        for (file, own, other) in [("erin-audio-1.webm", 523.0, 784.0), ("frank-audio-1.webm", 784.0, 523.0)] {
            let track = try recorded.track(file)
            #expect(track.codec == "opus" && track.channels == 2)
            let samples = try MediaSamples.monoAudio(of: recorded.path(track))
            let middle = samples[48_000..<(5 * 48_000)]
            #expect(Goertzel.prominence(of: middle, frequency: own) > 15, "\(file): its own tone")
            #expect(Goertzel.prominence(of: middle, frequency: other) < 6, "\(file): none of the other's")
        }
    }

    /// A white flash and a beep at the same instants: the video file's flashes and the audio
    /// file's beeps, each moved by its file's `start`, are within one frame on the room's clock.
    @Test func theFilesLineUpOnTheRoomsClock() throws {
        let recorded = try Self.record("avsync")
        let video = try #require(recorded.manifest.tracks.first { $0.kind == "video" })
        let audio = try #require(recorded.manifest.tracks.first { $0.kind == "audio" })
        var flashes: [Double] = []
        var previous = 0.0
        for frame in try MediaSamples.lumaPerFrame(of: recorded.path(video)) {
            if frame.luma > 150 && previous <= 150 { flashes.append(video.start + frame.time) }
            previous = frame.luma
        }
        var beeps: [Double] = []
        var lastLoud = -100_000
        for (index, sample) in try MediaSamples.monoAudio(of: recorded.path(audio)).enumerated() where abs(sample) > 0.2 {
            if index - lastLoud > 24_000 { beeps.append(audio.start + Double(index) / 48_000) }
            lastLoud = index
        }
        let pairs = flashes.filter { $0 > 0.5 }.compactMap { flash in beeps.min { abs($0 - flash) < abs($1 - flash) }.map { (flash, $0) } }
        #expect(pairs.count >= 4, "flashes \(flashes), beeps \(beeps)")
        let worst = pairs.map { abs($0.0 - $0.1) }.max() ?? .infinity
        print("measured: per-track flash against beep on the room's clock, worst \(String(format: "%.1f", worst * 1000)) ms over \(pairs.count) pairs")
        for (flash, beep) in pairs {
            #expect(abs(flash - beep) < 1.0 / 30, "flash at \(flash) s, beep at \(beep) s on the room's clock")
        }
    }

    /// Carol joins at 3 s, turns her camera off at 5 s, shares her screen from 6 s, leaves at
    /// 9 s and comes back at 10.5 s: each track is a file from its start to its end, and what
    /// was published again is a new file.
    @Test func aTrackPublishedAgainIsANewFile() throws {
        let recorded = try Self.record("room-changes")
        let expected: [(String, ClosedRange<Double>, ClosedRange<Double>)] = [
            ("carol-video-1.webm", 2.95...3.1, 4.9...5.05),
            ("carol-audio-1.webm", 2.95...3.1, 8.9...9.05),
            ("carol-share-1.webm", 5.95...6.1, 8.9...9.05),
            ("carol-video-2.webm", 10.45...10.6, 12.4...13.1),
            ("carol-audio-2.webm", 10.45...10.6, 12.4...13.1),
        ]
        for (file, start, end) in expected {
            let track = try recorded.track(file)
            #expect(start.contains(track.start) && end.contains(track.end), "\(file): \(track.start)…\(track.end)")
            #expect(track.participantId == "carol" && track.complete)
            #expect(try Tool.decodeFully(recorded.path(track)).status == 0, "\(file)")
        }
        #expect(try recorded.track("carol-share-1.webm").kind == "share")
        #expect(recorded.manifest.tracks.count == 9, "\(recorded.manifest.tracks.map(\.file))")
    }
}
