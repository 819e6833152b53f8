import Composite
import Fixture
import Foundation
import JobSpec
import Layout
import Media
import Outputs
import Pipeline
import TestSupport
import Testing

/// Controls on a running recording, in the pipeline: pauses leave their span out of one
/// continuous file with audio and video still in sync, and a layout change applies from the
/// next picture.
@Suite struct RecordingControlsTests {
    /// The flash-and-beep fixture (a flash and a 1 kHz beep at each whole second) played twice,
    /// paused three times at times that line up with neither frames nor audio blocks.
    @Test func pausesLeaveTheirSpanOutAndSyncHolds() throws {
        let fixture = try Fixture(directory: TestFixtures.path("avsync"))
        let directory = try TemporaryDirectory(prefix: "paused")
        let pipeline = try RecordingPipeline(config: RecordingConfig())
        let path = directory.file("out.mp4")
        pipeline.add(sink: try MP4FileOutput(path: path, streams: pipeline.streams))
        // Room times at which to pause and resume.
        var changes: [(at: Double, pause: Bool)] = [(1.37, true), (2.71, false), (4.213, true), (4.52, false), (7.05, true), (8.6, false)]
        var paused: [(start: Double, length: Double)] = []
        var pausedAt = 0.0
        try pipeline.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible, passes: 2)), shouldStop: {
            if let next = changes.first, pipeline.composer.nextOutputTime >= next.at {
                changes.removeFirst()
                if next.pause {
                    #expect(pipeline.pause())
                    #expect(!pipeline.pause(), "pausing twice is one pause")
                    pausedAt = pipeline.outputMediaTime
                } else if let length = pipeline.resume() {
                    paused.append((pausedAt, length))
                }
            }
            return false
        })
        #expect(paused.count == 3 && pipeline.resume() == nil)
        let left = paused.reduce(0) { $0 + $1.length }
        #expect(abs(left - (1.34 + 0.307 + 1.55)) < 0.1, "\(paused)")

        // One continuous file: a frame every 1/30 s and an AAC frame every 1024 samples from
        // start to end, as long as the room less the pauses.
        let video = try MediaProbe.packets(path, stream: "v:0").map(\.time).sorted()
        let audio = try MediaProbe.packets(path, stream: "a:0").map(\.time).sorted()
        let room = pipeline.composer.mediaEnd
        #expect(abs(Double(video.count) / 30 - (room - left)) < 0.1, "\(video.count) frames for \(room) s less \(left) s paused")
        #expect(zip(video, video.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 0.002 })
        #expect(zip(audio, audio.dropFirst()).allSatisfy { abs($1 - $0 - 1024.0 / 48_000) < 0.001 })
        #expect(abs((audio.last ?? 0) - (video.last ?? 0)) < 0.05, "audio ends at \(audio.last ?? 0), video at \(video.last ?? 0)")
        let decode = try Tool.decodeFully(path)
        #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")

        // Every flash still has its beep within a frame, after each pause too.
        let flashes = FlashBeepClip.flashes(try MediaSamples.lumaPerFrame(of: path))
        let beeps = FlashBeepClip.beeps(try MediaSamples.monoAudio(of: path))
        let pairs = flashes.filter { $0 > 0.5 }.compactMap { flash in beeps.min { abs($0 - flash) < abs($1 - flash) }.map { (flash, $0) } }
        print("measured: paused \(paused.map { String(format: "%.2f s at %.2f", $0.length, $0.start) }); flash − beep "
            + pairs.map { String(format: "%+.3f", $0.0 - $0.1) }.joined(separator: " "))
        #expect(pairs.count >= 6, "flashes \(flashes), beeps \(beeps)")
        #expect(pairs.allSatisfy { abs($0.0 - $0.1) < 1.0 / 30 }, "\(pairs)")
        #expect(pairs.contains { $0.0 > (paused.last?.start ?? 0) }, "a pair after the last pause")
    }

    /// GRID to SPOTLIGHT on the LIGHT theme, from the picture after the change.
    @Test func aLayoutChangeAppliesFromTheNextPicture() throws {
        let fixture = try Fixture(directory: TestFixtures.path("example"))
        let directory = try TemporaryDirectory(prefix: "relaid")
        let pipeline = try RecordingPipeline(config: RecordingConfig())
        var layouts: [Int64: Layout] = [:]
        pipeline.composer.onLayout = { layout, index in layouts[index] = layout }
        let path = directory.file("out.mp4")
        pipeline.add(sink: try MP4FileOutput(path: path, streams: pipeline.streams))
        var changedAt: Int64?
        try pipeline.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible)), shouldStop: {
            if changedAt == nil && pipeline.composer.nextOutputTime >= 3 {
                changedAt = pipeline.outputFrames
                try? pipeline.change(layout: LayoutSettings(type: .spotlight), theme: .light)
            }
            return false
        })
        let change = try #require(changedAt)
        let before = try #require(layouts[change - 1]), after = try #require(layouts[change])
        #expect(before.tiles.count == 2 && after.tiles.count == 1, "GRID of two, then SPOTLIGHT of one: \(before.tiles.count), \(after.tiles.count)")
        let light = Theme.named(.light).background, dark = Theme.named(.default).background
        let last = try MediaSamples.frame(of: path, at: Double(change - 2) / 30, width: 1280, height: 720)
        let first = try MediaSamples.frame(of: path, at: Double(change) / 30 + 0.01, width: 1280, height: 720)
        #expect(last.pixel(x: 2, y: 2).distance(to: dark) < 12 && first.pixel(x: 2, y: 2).distance(to: light) < 12,
                "background \(last.pixel(x: 2, y: 2)) then \(first.pixel(x: 2, y: 2))")
        #expect(pipeline.composer.config.layout.type == .spotlight && pipeline.composer.config.theme == .light)
    }
}
