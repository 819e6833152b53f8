import JobSpec
import Composite
import Encode
import Fixture
import Foundation
import Layout
import Media
import Outputs
import Pipeline
import TestSupport
import Testing

/// Fixtures recorded end to end, checked with ffprobe, a full ffmpeg decode, pixels and tones.
@Suite struct RecordTests {
    struct Recording {
        let path: String
        let fixture: Fixture
        let layouts: [Int64: Layout]
        let directory: TemporaryDirectory
    }

    static func record(_ fixtureName: String, configure: (inout RecordingConfig) -> Void = { _ in }) throws -> Recording {
        let directory = try TemporaryDirectory(prefix: "record")
        let fixture = try Fixture(directory: TestFixtures.path(fixtureName))
        var configuration = RecordingConfig()
        configure(&configuration)
        let pipeline = try RecordingPipeline(config: configuration)
        var layouts: [Int64: Layout] = [:]
        pipeline.composer.onLayout = { layout, index in layouts[index] = layout }
        let path = directory.file("out.mp4")
        pipeline.add(sink: try MP4FileOutput(path: path, streams: pipeline.streams))
        try pipeline.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible)))
        return Recording(path: path, fixture: fixture, layouts: layouts, directory: directory)
    }

    static let sourceColours = ["erin": YUVColor(rgb: 0x8030C0), "frank": YUVColor(rgb: 0xE08020)]

    @Test func theExampleBecomesAFinishedMP4() throws {
        let recording = try Self.record("example")
        let probe = try MediaProbe.probe(recording.path)
        // The duration matches the fixture's to within one frame.
        let duration = try #require(probe.format.durationSeconds)
        #expect(abs(duration - recording.fixture.captureDuration) <= 1.0 / 30 + 0.001, "duration \(duration)")
        // The stream parameters are the med preset's.
        let video = try #require(probe.video)
        #expect(video.codecName == "h264")
        #expect(video.width == 1280 && video.height == 720)
        #expect(video.pixFmt == "yuv420p")
        #expect(video.profile == "High")
        #expect(abs((video.framesPerSecond ?? 0) - 30) < 0.01)
        let audio = try #require(probe.audio)
        #expect(audio.codecName == "aac")
        #expect(audio.sampleRate == "48000")
        #expect(audio.channels == 2)
        #expect(probe.format.formatName?.contains("mp4") == true)
        // Faststart: the movie box comes before the media.
        let boxes = try MP4Boxes.topLevel(recording.path)
        #expect(boxes.firstIndex(of: "moov") ?? 99 < boxes.firstIndex(of: "mdat") ?? 0)
        // A full decode finds no error.
        let decode = try Tool.decodeFully(recording.path)
        #expect(decode.status == 0, "\(decode.standardError)")
        #expect(decode.standardError.isEmpty)
        // Keyframes every 2 s.
        let keyframes = try MediaProbe.packets(recording.path).filter(\.keyframe).map(\.time)
        #expect(keyframes.map { ($0 * 10).rounded() / 10 } == [0, 2, 4])
    }

    @Test func eachTileShowsItsParticipantsColour() throws {
        let recording = try Self.record("example")
        let frame = try MediaSamples.frame(of: recording.path, at: 3, width: 1280, height: 720)
        let layout = try #require(recording.layouts[90])
        #expect(layout.tiles.count == 2)
        for tile in layout.tiles {
            let placement = ContentPlacement.place(source: Size(width: 640, height: 360), in: tile.rect, mode: .fill)
            let expected = try #require(Self.sourceColours[tile.participantID])
            // Points across the top of the picture, clear of the moving square and the label.
            for fraction in [0.2, 0.5, 0.8] {
                let point = placement.canvasPoint(sourceX: 640 * fraction, sourceY: 60)
                let seen = frame.pixel(x: point.x, y: point.y)
                #expect(seen.distance(to: expected) <= 16, "\(tile.participantID) at \(point): \(seen), expected \(expected)")
            }
        }
    }

    @Test func theMixHoldsEachParticipantsTone() throws {
        let recording = try Self.record("example", configure: { $0.mode = .audio })
        let probe = try MediaProbe.probe(recording.path)
        #expect(probe.video == nil)
        #expect(probe.audio?.codecName == "aac")
        #expect(abs((probe.format.durationSeconds ?? 0) - recording.fixture.captureDuration) < 0.05)
        let samples = try MediaSamples.monoAudio(of: recording.path)
        let middle = samples[48_000..<(5 * 48_000)]
        #expect(Goertzel.prominence(of: middle, frequency: 523) > 15) // Erin
        #expect(Goertzel.prominence(of: middle, frequency: 784) > 15) // Frank
        #expect(samples.allSatisfy { abs($0) <= 1 })
    }

    @Test func portraitLowQualityIsSwapped() throws {
        let recording = try Self.record("example", configure: {
            $0.quality = .low
            $0.orientation = .portrait
            $0.theme = .light
        })
        let probe = try MediaProbe.probe(recording.path)
        #expect(probe.video?.width == 480 && probe.video?.height == 854)
        #expect(try Tool.decodeFully(recording.path).status == 0)
        // Portrait grid: the two tiles are stacked.
        let layout = try #require(recording.layouts[90])
        #expect(layout.tiles[0].rect.x == layout.tiles[1].rect.x)
    }

    /// Speakers take turns (Erin 0–4 s, Frank 4–8 s): SPOTLIGHT with SPEAKER shows the speaker.
    @Test func spotlightFollowsTheSpeaker() throws {
        let recording = try Self.record("speakers", configure: {
            $0.layout.type = .spotlight
            $0.layout.priority = .speaker
        })
        let blue = YUVColor(rgb: 0x2050E0), green = YUVColor(rgb: 0x30C040)
        for (time, expected, who) in [(2.0, blue, "erin"), (7.0, green, "frank")] {
            let index = Int64(time * 30)
            let layout = try #require(recording.layouts[index])
            #expect(layout.tiles.map(\.participantID) == [who], "at \(time) s")
            let frame = try MediaSamples.frame(of: recording.path, at: time, width: 1280, height: 720)
            let placement = ContentPlacement.place(source: Size(width: 640, height: 360), in: layout.tiles[0].rect, mode: .fill)
            let point = placement.canvasPoint(sourceX: 320, sourceY: 60)
            #expect(frame.pixel(x: point.x, y: point.y).distance(to: expected) <= 16, "at \(time) s")
        }
    }

    /// A white flash and a 1 kHz beep at the same instants, once a second: in the recording they
    /// are within one frame of each other.
    @Test func audioAndVideoStayInSync() throws {
        let recording = try Self.record("avsync")
        let frames = try MediaSamples.lumaPerFrame(of: recording.path)
        var flashes: [Double] = []
        var previous = 0.0
        for frame in frames {
            if frame.luma > 150 && previous <= 150 { flashes.append(frame.time) }
            previous = frame.luma
        }
        let samples = try MediaSamples.monoAudio(of: recording.path)
        var beeps: [Double] = []
        var lastLoud = -100_000
        for (index, sample) in samples.enumerated() where abs(sample) > 0.2 {
            if index - lastLoud > 24_000 { beeps.append(Double(index) / 48_000) }
            lastLoud = index
        }
        // The flashes after the first second (the first is at the very start of the capture).
        let pairs = flashes.filter { $0 > 0.5 }.compactMap { flash in beeps.min { abs($0 - flash) < abs($1 - flash) }.map { (flash, $0) } }
        #expect(pairs.count >= 4, "flashes \(flashes), beeps \(beeps)")
        for (flash, beep) in pairs {
            #expect(abs(flash - beep) < 1.0 / 30, "flash at \(flash) s, beep at \(beep) s")
        }
    }

    /// Four people, one with the camera off: a placeholder with initials, and no black frames
    /// at the start.
    @Test func cameraOffIsAPlaceholderAndTheFirstFrameIsNotBlack() throws {
        let recording = try Self.record("room4")
        let theme = Theme.named(.default)
        let first = try MediaSamples.frame(of: recording.path, at: 0, width: 1280, height: 720)
        let firstLayout = try #require(recording.layouts[0])
        #expect(firstLayout.tiles.count == 4)
        for tile in firstLayout.tiles {
            let centre = first.pixel(x: tile.rect.x + tile.rect.width / 2, y: tile.rect.y + tile.rect.height / 3)
            #expect(centre.distance(to: .black) > 20, "\(tile.participantID) is black in the first frame")
        }
        let layout = try #require(recording.layouts[90])
        let hana = try #require(layout.tiles.first { $0.participantID == "hana" })
        #expect(hana.content == .cameraOff)
        let frame = try MediaSamples.frame(of: recording.path, at: 3, width: 1280, height: 720)
        let rect = hana.rect
        // The disc of the initials sits just above the tile's centre, in the theme's colour.
        let disc = frame.pixel(x: rect.x + rect.width / 2 - min(rect.width, rect.height) / 8, y: rect.y + rect.height / 2 - rect.height / 20)
        #expect(disc.distance(to: theme.avatar) <= 12 || disc.distance(to: theme.avatarText) <= 12, "\(disc)")
        #expect(frame.pixel(x: rect.x + 20, y: rect.y + 20).distance(to: theme.tile) <= 8)
    }
}
