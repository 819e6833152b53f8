import Composite
import Fixture
import Foundation
import JobSpec
import Layout
import Media
import Outputs
@testable import Pipeline
import TestSupport
import Testing

/// Controls on a running recording, in the pipeline: pauses leave their span out of one
/// continuous file with audio and video still in sync, and a layout change applies from the
/// next picture.
@Suite struct RecordingControlsTests {
    /// The flash-and-beep fixture (a flash and a 1 kHz beep at each whole second) played twice,
    /// paused three times at times that line up with neither frames nor audio blocks: the job's
    /// gate (`JobSlot`) leaves the paused spans out of its file.
    @Test func pausesLeaveTheirSpanOutAndSyncHolds() throws {
        let fixture = try Fixture(directory: TestFixtures.path("avsync"))
        let directory = try TemporaryDirectory(prefix: "paused")
        let pipeline = try RecordingPipeline(config: RecordingConfig())
        let path = directory.file("out.mp4")
        let slot = try Self.slot(pipeline, writing: path, fromStart: true)
        // Room times at which to pause and resume.
        var changes: [(at: Double, pause: Bool)] = [(1.37, true), (2.71, false), (4.213, true), (4.52, false), (7.05, true), (8.6, false)]
        var paused: [(start: Double, length: Double)] = []
        var pausedAt = (output: 0.0, room: 0.0)
        try pipeline.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible, passes: 2)), shouldStop: {
            if let next = changes.first, pipeline.composer.nextOutputTime >= next.at {
                changes.removeFirst()
                if next.pause {
                    #expect(slot.pause(pipeline))
                    #expect(!slot.pause(pipeline), "pausing twice is one pause")
                    pausedAt = (slot.outputSeconds, pipeline.composer.nextOutputTime)
                } else if slot.resume(pipeline) {
                    pipeline.requestKeyframe()
                    paused.append((pausedAt.output, pipeline.composer.nextOutputTime - pausedAt.room))
                }
            }
            return false
        })
        #expect(paused.count == 3 && !slot.resume(pipeline))
        let left = paused.reduce(0) { $0 + $1.length }
        #expect(abs(left - (1.34 + 0.307 + 1.55)) < 0.1, "\(paused)")
        // Paused alone, the composite is neither drawn nor encoded once the encoder has given
        // what it held from before each pause (a few pictures each).
        let pausedFrames = Int64((left * 30).rounded())
        #expect(pipeline.picturesSkipped > pausedFrames - 20 && pipeline.picturesSkipped <= pausedFrames,
                "\(pipeline.picturesSkipped) pictures skipped of \(pausedFrames) paused")
        try Self.expectPlaysThrough(path, seconds: pipeline.composer.mediaEnd - left, after: paused.last?.start ?? 0)
        print("measured: paused \(paused.map { String(format: "%.2f s at %.2f", $0.length, $0.start) }); \(pipeline.picturesSkipped) of \(pausedFrames) paused pictures not made")
    }

    /// Two jobs on one encode (issue 26 item 7): the second joins at 3.1 s and leaves at 8.4 s
    /// while the first goes on and pauses on its own; each file starts at 0, plays straight
    /// through, and keeps every flash with its beep.
    @Test func aJobThatJoinsAndLeavesGetsItsOwnFileInSync() throws {
        let fixture = try Fixture(directory: TestFixtures.path("avsync"))
        let directory = try TemporaryDirectory(prefix: "joined")
        let pipeline = try RecordingPipeline(config: RecordingConfig())
        let first = try Self.slot(pipeline, writing: directory.file("first.mp4"), fromStart: true)
        var second: JobSlot?
        var joinedAt = 0.0, leftAt = 0.0, pausedFor = 0.0
        try pipeline.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible, passes: 2)), shouldStop: {
            let now = pipeline.composer.nextOutputTime
            if second == nil && now >= 3.1 {
                second = try? Self.slot(pipeline, writing: directory.file("second.mp4"), fromStart: false)
                pipeline.requestKeyframe()
                joinedAt = now
            }
            if now >= 5.2 && now < 6.4 && !first.gate.isPaused { _ = first.pause(pipeline) }
            if now >= 6.4 && first.gate.state == .closed {
                _ = first.resume(pipeline)
                pipeline.requestKeyframe()
                pausedFor = now - 5.2
            }
            // Leaving as a run lets a job go: cut at the next picture, finished once the
            // encoders have given what they held from before it.
            if let joined = second, leftAt == 0 && now >= 8.4 {
                #expect(joined.pause(pipeline))
                leftAt = now
            }
            if let joined = second, joined.drained, pipeline.has(sink: joined) {
                pipeline.remove(sink: joined)
                for sink in joined.takeOutputs() { try? sink.finish() }
            }
            return false
        })
        #expect(second != nil && leftAt > 0)
        try Self.expectPlaysThrough(directory.file("first.mp4"), seconds: pipeline.composer.mediaEnd - pausedFor, after: 6.5)
        try Self.expectPlaysThrough(directory.file("second.mp4"), seconds: leftAt - joinedAt, after: 1)
    }

    /// Two jobs, one layout each (issue 26 item 7): the second moves to SPOTLIGHT on LIGHT at
    /// 2.5 s (a composite of its own on the same decoders, `CompositeBranch`) and back at 5 s (the
    /// branch goes); the first stays GRID on the dark theme throughout. Both files play straight
    /// through, each showing its own layout.
    @Test func aJobThatChangesItsLayoutGetsACompositeOfItsOwn() throws {
        let fixture = try Fixture(directory: TestFixtures.path("example"))
        let directory = try TemporaryDirectory(prefix: "branched")
        let pipeline = try RecordingPipeline(config: RecordingConfig())
        _ = try Self.slot(pipeline, writing: directory.file("first.mp4"), fromStart: true)
        let second = try Self.slot(pipeline, writing: directory.file("second.mp4"), fromStart: true)
        let change = AwayAndBack(second, away: 2.5, back: 5)
        try pipeline.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible, passes: 2)), shouldStop: {
            change.step(pipeline)
            return false
        })
        let moved = try #require(change.awayAt), back = try #require(change.backAt)
        #expect(change.branchesWhileAway == 1 && pipeline.branches.isEmpty, "one branch while moved, none after")
        #expect(pipeline.composer.config.layout.type == .grid && pipeline.composer.config.theme == .default, "the main composite is as it was")
        let light = Theme.named(.light).background, dark = Theme.named(.default).background
        let background = { (path: String, frame: Int64) in
            try MediaSamples.frame(of: path, at: Double(frame) / 30 + 0.01, width: 1280, height: 720).pixel(x: 2, y: 2)
        }
        for frame in [moved - 3, moved + 3, back - 3, back + 3] {
            #expect(try background(directory.file("first.mp4"), frame).distance(to: dark) < 12, "first at frame \(frame)")
        }
        #expect(try background(directory.file("second.mp4"), moved - 3).distance(to: dark) < 12)
        #expect(try background(directory.file("second.mp4"), moved + 3).distance(to: light) < 12, "moved at frame \(moved)")
        #expect(try background(directory.file("second.mp4"), back - 3).distance(to: light) < 12)
        #expect(try background(directory.file("second.mp4"), back + 3).distance(to: dark) < 12, "back at frame \(back)")
        for name in ["first.mp4", "second.mp4"] {
            let video = try MediaProbe.packets(directory.file(name), stream: "v:0").map(\.time).sorted()
            #expect(abs(Double(video.count) / 30 - pipeline.composer.mediaEnd) < 0.1, "\(name): \(video.count) frames")
            #expect(zip(video, video.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 0.002 }, "\(name) has no hole")
            let decode = try Tool.decodeFully(directory.file(name))
            #expect(decode.status == 0 && decode.standardError.isEmpty, "\(name): \(decode.standardError)")
        }
    }

    /// A job's gate with one MP4 behind it, on `pipeline`.
    static func slot(_ pipeline: RecordingPipeline, writing path: String, fromStart: Bool) throws -> JobSlot {
        let slot = JobSlot(name: path, framesPerSecond: pipeline.composer.framesPerSecond, hasVideo: true, openFromStart: fromStart,
                           from: pipeline.composer.videoFrames)
        slot.add(.mp4(path: path), sink: QueuedSink(try MP4FileOutput(path: path, streams: pipeline.streams), policy: .block))
        pipeline.add(sink: slot)
        return slot
    }

    /// One continuous file as long as `seconds`: a frame every 1/30 s and an AAC frame every
    /// 1024 samples from 0 to the end, decoding cleanly, every flash with its beep within a
    /// frame and half an AAC block, one of them after `after`.
    static func expectPlaysThrough(_ path: String, seconds: Double, after: Double) throws {
        let video = try MediaProbe.packets(path, stream: "v:0").map(\.time).sorted()
        let audio = try MediaProbe.packets(path, stream: "a:0").map(\.time).sorted()
        #expect(abs(Double(video.count) / 30 - seconds) < 0.1, "\(video.count) frames for \(seconds) s")
        #expect((video.first ?? 1) < 0.001 && (audio.first ?? 1) < 0.03, "starts at \(video.first ?? -1), \(audio.first ?? -1)")
        #expect(zip(video, video.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 0.002 })
        #expect(zip(audio, audio.dropFirst()).allSatisfy { abs($1 - $0 - 1024.0 / 48_000) < 0.001 })
        #expect(abs((audio.last ?? 0) - (video.last ?? 0)) < 0.05, "audio ends at \(audio.last ?? 0), video at \(video.last ?? 0)")
        let decode = try Tool.decodeFully(path)
        #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")
        let flashes = FlashBeepClip.flashes(try MediaSamples.lumaPerFrame(of: path))
        let beeps = FlashBeepClip.beeps(try MediaSamples.monoAudio(of: path))
        // A flash's beep is the nearest one; a beep that a pause cut to less than the detector's
        // half second of quiet before it is not found, and its flash is left out.
        let pairs = flashes.filter { $0 > 0.5 }.compactMap { flash in beeps.min { abs($0 - flash) < abs($1 - flash) }.map { (flash, $0) } }
            .filter { abs($0.0 - $0.1) < 0.2 }
        print("measured: \(URL(fileURLWithPath: path).lastPathComponent) \(String(format: "%.2f", Double(video.count) / 30)) s; flash − beep "
            + pairs.map { String(format: "%+.3f", $0.0 - $0.1) }.joined(separator: " "))
        #expect(pairs.count >= Int(seconds / 2), "flashes \(flashes), beeps \(beeps)")
        // Within a frame, and the half AAC block a job's gate may move audio by to keep it whole.
        #expect(pairs.allSatisfy { abs($0.0 - $0.1) < 1.0 / 30 + 512.0 / 48_000 }, "\(pairs)")
        #expect(pairs.contains { $0.0 > after }, "a pair after \(after) s")
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
