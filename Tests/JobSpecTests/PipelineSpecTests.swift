import APIModels
import Foundation
import JobSpec
import TestKit
import Testing

/// What a worker hands a job's process.
@Suite struct PipelineSpecTests {
    static let spec = PipelineSpec(
        source: .fixture(FixtureSourceSpec(directory: "/rooms/r1", passes: nil, realtime: true)),
        config: RecordingConfig(layout: LayoutSettings(type: .spotlight, priority: .pin, gridSize: 2), theme: .dark),
        outputs: [.mp4(path: "/s/a.mp4"), .hls(directory: "/s/h", segmentDuration: 2, window: 6, partDuration: 0.334),
                  .rtmp(LivestreamOutput(url: "rtmp://x/live", streamKey: "secret"))],
        job: .init(id: "j1", kind: .livestream, attempt: 2), eventsPath: "/s/e", parentPID: 42)

    @Test func aSpecFileIsPrivateAndReadsBackTheSame() throws {
        let directory = try TemporaryDirectory(prefix: "spec")
        let path = directory.file("spec.json")
        try Self.spec.write(to: path)
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(try PipelineSpec(contentsOf: path) == Self.spec)
        // Writing again replaces the file (a new attempt), still 0600.
        try Self.spec.write(to: path)
        #expect(try PipelineSpec(contentsOf: path) == Self.spec)
    }

    @Test func theRedactedSpecHasNoSecrets() throws {
        let text = APIJSON.text(Self.spec.redacted)
        #expect(!text.contains("secret"))
        #expect(text.contains("***"))
        #expect(Self.spec.redacted.config == Self.spec.config)
        #expect(Self.spec.outputs.map(\.partKind) == [.mp4, .hls, nil])
    }

    /// A per-participant recording's spec: its `tracks` output and the job's room survive the file.
    @Test func aTracksSpecReadsBackTheSame() throws {
        let directory = try TemporaryDirectory(prefix: "spec")
        var config = RecordingConfig()
        config.mode = .tracks
        let spec = PipelineSpec(source: .fixture(FixtureSourceSpec(directory: "/rooms/r1", passes: nil, realtime: true)), config: config,
                                outputs: [.tracks(directory: "/s/recordings/j1/part-1.tracks")], job: .init(id: "j1", kind: .recording, attempt: 1, roomID: "r1"))
        try spec.write(to: directory.file("spec.json"))
        let read = try PipelineSpec(contentsOf: directory.file("spec.json"))
        #expect(read == spec && read.job?.roomID == "r1" && read.outputs.map(\.partKind) == [.tracks])
    }

    @Test func aDamagedSpecFileIsAClearError() throws {
        let directory = try TemporaryDirectory(prefix: "spec")
        try "{\"source\": 1}".write(toFile: directory.file("bad.json"), atomically: true, encoding: .utf8)
        let error = #expect(throws: SpecError.self) { try PipelineSpec(contentsOf: directory.file("bad.json")) }
        #expect(error?.message.contains("is not a pipeline spec") == true)
        #expect(throws: SpecError.self) { try PipelineSpec(contentsOf: directory.file("missing.json")) }
    }

    @Test(arguments: [
        ("out.mp4", OutputSpec.mp4(path: "out.mp4")),
        ("mp4:out/room.mp4", .mp4(path: "out/room.mp4")),
        ("MP4:take-1", .mp4(path: "take-1")),
        ("hls:dir", .hls(directory: "dir", segmentDuration: 2, window: 6, partDuration: 0.334)),
        ("rtmp://h/app", .rtmp(LivestreamOutput(url: "rtmp://h/app", streamKey: "k"))),
        ("tracks:out/room", .tracks(directory: "out/room")),
    ])
    func commandLineOutputs(text: String, output: OutputSpec) throws {
        #expect(try OutputSpec(commandLine: text, streamKey: "k", segmentDuration: 2, window: 6) == output)
    }

    @Test(arguments: ["mp4:", "hls:", "tracks:", "out.mkv", ""])
    func commandLineOutputsThatAreNotOutputsAreRefused(text: String) {
        #expect(throws: SpecError.self) { try OutputSpec(commandLine: text, streamKey: nil, segmentDuration: 2, window: 6) }
    }
}
