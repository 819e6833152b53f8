import Fixture
import Foundation
import JobSpec
import Layout
import Media
import MediaSource
import Outputs
import Pipeline
import TestSupport
import Testing

/// A room that changes while it records (Tests/Fixtures/room-changes): carol joins at 3 s with her
/// camera, turns it off at 5 s, shares her screen from 6 s, is renamed at 8 s, leaves at 9 s and
/// comes back at 10.5 s with new SSRCs. The layout must follow on the frame each event falls on,
/// and the pictures must show it.
@Suite struct RoomChangesTests {
    struct Recording {
        let path: String
        let layouts: [Int64: Layout]
        let feedback: FixtureSource.FeedbackLog
        let directory: TemporaryDirectory
    }

    static let carolGreen = YUVColor(rgb: 0x30A050)
    static let shareMagenta = YUVColor(rgb: 0xC020A0)
    static let fps = 30.0

    static func record(_ layout: LayoutType) throws -> Recording {
        let directory = try TemporaryDirectory(prefix: "room-changes")
        let fixture = try Fixture(directory: TestFixtures.path("room-changes"))
        var config = RecordingConfig()
        config.layout.type = layout
        let pipeline = try RecordingPipeline(config: config)
        var layouts: [Int64: Layout] = [:]
        pipeline.composer.onLayout = { layout, index in layouts[index] = layout }
        let path = directory.file("out.mp4")
        pipeline.add(sink: try MP4FileOutput(path: path, streams: pipeline.streams))
        let source = FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible))
        try pipeline.run(source)
        return Recording(path: path, layouts: layouts, feedback: source.feedback, directory: directory)
    }

    /// The first output frame at or after `time`.
    static func frame(at time: Double) -> Int64 { Int64((time * fps - 1e-6).rounded(.up)) }

    static func carolTiles(_ layout: Layout?) -> [Tile] { layout?.tiles.filter { $0.participantID == "carol" } ?? [] }

    /// The colour at the top middle of a tile's picture (clear of the moving square and the label).
    static func colour(of tile: Tile, in picture: VideoFrame) -> YUVColor {
        let placement = ContentPlacement.place(source: Size(width: 640, height: 360), in: tile.rect, mode: tile.placementMode)
        let point = placement.canvasPoint(sourceX: 320, sourceY: 50)
        return picture.pixel(x: point.x, y: point.y)
    }

    @Test(arguments: [LayoutType.grid, .sidebar])
    func theLayoutFollowsEveryEvent(layout: LayoutType) throws {
        let recording = try Self.record(layout)
        let layouts = recording.layouts
        func before(_ time: Double) -> Layout? { layouts[Self.frame(at: time) - 1] }
        func at(_ time: Double) -> Layout? { layouts[Self.frame(at: time)] }

        // 3.0 s: carol joins with her camera; her tile is there on the frame of the event.
        #expect(Self.carolTiles(before(3.0)).isEmpty)
        #expect(Self.carolTiles(at(3.0)).map(\.content) == [.camera])
        #expect(at(3.0)?.tiles.count == 3)
        // 5.0 s: camera off, the tile stays as a placeholder.
        #expect(Self.carolTiles(before(5.0)).map(\.content) == [.camera])
        #expect(Self.carolTiles(at(5.0)).map(\.content) == [.cameraOff])
        // 6.0 s: the share takes the main area from its first picture (20 ms later, a keyframe).
        #expect(!(before(6.0)?.tiles.contains { $0.content == .screenShare } ?? true))
        let shareFrame = try #require((Self.frame(at: 6.0)...Self.frame(at: 6.2)).first { index in
            layouts[index]?.tiles.contains { $0.content == .screenShare && $0.role == .main && $0.participantID == "carol" } == true
        })
        #expect(shareFrame <= Self.frame(at: 6.02) + 2, "the share appeared at frame \(shareFrame)")
        // 8.0 s: renamed on the frame of the event.
        #expect(Self.carolTiles(before(8.0)).allSatisfy { $0.name == "Carol" })
        #expect(!Self.carolTiles(at(8.0)).isEmpty && Self.carolTiles(at(8.0)).allSatisfy { $0.name == "Carol (host)" })
        // 9.0 s: gone, share and all.
        #expect(!Self.carolTiles(before(9.0)).isEmpty)
        #expect(Self.carolTiles(at(9.0)).isEmpty)
        #expect(at(9.0)?.tiles.count == 2)
        // 10.5 s: back, with her new camera.
        #expect(Self.carolTiles(before(10.5)).isEmpty)
        #expect(Self.carolTiles(at(10.5)).map(\.content) == [.camera])
        #expect(Self.carolTiles(at(10.5)).first?.name == "Carol")

        // The pictures say the same. A camera's first picture needs its keyframe, 20 ms after
        // the event; 0.2 s after it, her colour is in her tile.
        func picture(_ time: Double) throws -> VideoFrame {
            try MediaSamples.frame(of: recording.path, at: Double(Self.frame(at: time)) / Self.fps, width: 1280, height: 720)
        }
        func carolColour(_ time: Double) throws -> YUVColor? {
            guard let tile = Self.carolTiles(at(time)).first else { return nil }
            return Self.colour(of: tile, in: try picture(time))
        }
        #expect(try #require(try carolColour(3.2)).distance(to: Self.carolGreen) <= 16)
        #expect(try #require(try carolColour(5.2)).distance(to: Self.carolGreen) > 40, "camera off: a placeholder, not her picture")
        #expect(try #require(try carolColour(10.7)).distance(to: Self.carolGreen) <= 16)
        let shareTime = 6.3
        let share = try #require(at(shareTime)?.tiles.first { $0.content == .screenShare })
        #expect(Self.colour(of: share, in: try picture(shareTime)).distance(to: Self.shareMagenta) <= 16)
        // The rename redraws her label: her placeholder's label area changes across 8 s, and
        // does not change across two frames before it.
        let placeholder = try #require(Self.carolTiles(at(8.0)).first { $0.content == .cameraOff })
        let label = Rect(x: placeholder.rect.x, y: placeholder.rect.y + placeholder.rect.height * 3 / 4, width: placeholder.rect.width,
                         height: placeholder.rect.height / 4)
        let steady = try picture(7.6).meanAbsoluteDifference(to: try picture(7.9), in: label)
        let renamed = try picture(7.9).meanAbsoluteDifference(to: try picture(8.1), in: label)
        #expect(renamed > steady + 0.5, "label change \(renamed) against \(steady)")

        // Every track was asked for a keyframe when it was announced.
        for ssrc: UInt32 in [7501, 7511, 7521, 7523, 7525] {
            #expect(recording.feedback.pictureLossIndications[ssrc, default: 0] >= 1, "ssrc \(ssrc)")
        }
        // And the output is continuous: 13 s at 30 fps.
        let times = try MediaProbe.packets(recording.path).map(\.time).sorted()
        #expect(abs(Double(times.count) - 13.0 * Self.fps) <= 2)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 < 1.5 / Self.fps })
    }
}
