import Encode
import Foundation
import Outputs
import TestSupport
import Testing

@Suite struct MP4FileOutputTests {
    @Test func aFinishedRecordingIsFaststartAndPlays() throws {
        let directory = try TemporaryDirectory(prefix: "mp4")
        let streams = try EncodedStreams(seconds: 4)
        let output = try MP4FileOutput(path: directory.file("out.mp4"), streams: streams.layout)
        for packet in streams.packets { try output.write(packet) }
        try output.finish()
        let probe = try MediaProbe.probe(directory.file("out.mp4"))
        #expect(probe.video?.width == 854)
        #expect(probe.audio?.sampleRate == "48000")
        #expect(abs((probe.format.durationSeconds ?? 0) - 4) < 0.05)
        #expect(try Tool.decodeFully(directory.file("out.mp4")).status == 0)
        let boxes = try MP4Boxes.topLevel(directory.file("out.mp4"))
        #expect(boxes.firstIndex(of: "moov") ?? 99 < boxes.firstIndex(of: "mdat") ?? 0)
        #expect(!boxes.contains("moof"))
        // A fragment at each keyframe (2 s) and at least every second.
        #expect(output.fragments >= 3)
    }

    /// While recording, the file is fragmented, and a kill can only leave it as committed
    /// fragments followed by part of an uncommitted one (its moof still typed `free`). Every such
    /// state decodes without error, up to the last whole fragment.
    @Test func whateverAKillLeavesDecodesUpToTheLastWholeFragment() throws {
        let directory = try TemporaryDirectory(prefix: "mp4-cut")
        let streams = try EncodedStreams(seconds: 5)
        let path = directory.file("live.mp4")
        let output = try MP4FileOutput(path: path, streams: streams.layout)
        for packet in streams.packets { try output.write(packet) }
        let data = try #require(FileManager.default.contents(atPath: path)).map { $0 }
        let boxes = try MP4Boxes.boxes(path)
        #expect(boxes.prefix(2).map(\.type) == ["ftyp", "moov"])
        let fragments = boxes.filter { $0.type == "moof" }
        #expect(fragments.count >= 4)
        var generator = SeededGenerator(seed: 31)
        var checked = 0
        // The kill falls while fragment k (k ≥ 1, so one whole fragment exists) is appended.
        for k in 1..<fragments.count {
            let start = fragments[k].offset
            let end = k + 1 < fragments.count ? fragments[k + 1].offset : data.count
            var uncommitted = Array(data[start..<end])
            uncommitted.replaceSubrange(4..<8, with: Array("free".utf8))
            for length in [0, 3, 8, uncommitted.count / 2, uncommitted.count - 1, uncommitted.count]
                + [Int(generator.next() % UInt64(uncommitted.count))]
            {
                let cutPath = directory.file("cut-\(k)-\(length).mp4")
                try Data(data[0..<start] + uncommitted.prefix(length)).write(to: URL(fileURLWithPath: cutPath))
                let decode = try Tool.decodeFully(cutPath)
                #expect(decode.status == 0, "fragment \(k), \(length) bytes: \(decode.standardError)")
                #expect(decode.standardError.isEmpty, "fragment \(k), \(length) bytes: \(decode.standardError)")
                checked += 1
            }
        }
        #expect(checked >= 21)
    }

    @Test func anUncommittedFragmentIsAFreeBoxPlayersSkip() throws {
        let directory = try TemporaryDirectory(prefix: "mp4-free")
        let streams = try EncodedStreams(seconds: 3)
        let path = directory.file("live.mp4")
        let output = try MP4FileOutput(path: path, streams: streams.layout)
        for packet in streams.packets { try output.write(packet) }
        // Make the last fragment look half-committed: its moof still says free.
        var bytes = try #require(FileManager.default.contents(atPath: path)).map { $0 }
        let boxes = try MP4Boxes.boxes(path)
        let lastMoof = try #require(boxes.last { $0.type == "moof" })
        bytes.replaceSubrange((lastMoof.offset + 4)..<(lastMoof.offset + 8), with: Array("free".utf8))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let decode = try Tool.decodeFully(path)
        #expect(decode.status == 0, "\(decode.standardError)")
        let report = try MP4Repair.repair(path, to: directory.file("fixed.mp4"))
        #expect(report.fragmentsKept == boxes.filter { $0.type == "moof" }.count - 1)
        #expect(try Tool.decodeFully(directory.file("fixed.mp4")).status == 0)
    }

    @Test func repairMakesAKilledRecordingFaststart() throws {
        let directory = try TemporaryDirectory(prefix: "mp4-repair")
        let streams = try EncodedStreams(seconds: 5)
        let path = directory.file("killed.mp4")
        let output = try MP4FileOutput(path: path, streams: streams.layout)
        for packet in streams.packets { try output.write(packet) }
        let data = try #require(FileManager.default.contents(atPath: path))
        try Data(data.prefix(data.count - 777)).write(to: URL(fileURLWithPath: path))
        let report = try MP4Repair.repair(path, to: path)
        #expect(report.fragmentsKept >= 3)
        let boxes = try MP4Boxes.topLevel(path)
        #expect(boxes.firstIndex(of: "moov") ?? 99 < boxes.firstIndex(of: "mdat") ?? 0)
        #expect(!boxes.contains("moof"))
        #expect(try Tool.decodeFully(path).status == 0)
        let duration = try MediaProbe.probe(path).format.durationSeconds ?? 0
        #expect(duration > 2.5 && duration < 5)
    }

    /// A finished recording found by a worker that takes a job over (its holder finished the
    /// file, then died before listing it): kept as it is, never taken for an empty one.
    @Test func aFinishedRecordingIsKeptAsItIsNotRepaired() throws {
        let directory = try TemporaryDirectory(prefix: "mp4-whole")
        let streams = try EncodedStreams(seconds: 3)
        let path = directory.file("whole.mp4")
        let output = try MP4FileOutput(path: path, streams: streams.layout)
        for packet in streams.packets { try output.write(packet) }
        try output.finish()
        let before = try #require(FileManager.default.contents(atPath: path))
        #expect(throws: MP4Repair.AlreadyWhole.self) { try MP4Repair.repair(path, to: path) }
        #expect(OutputPart.finishAbandoned(.mp4, at: path) == .complete)
        #expect(FileManager.default.contents(atPath: path) == before)
    }

    @Test func repairRefusesWhatIsNotAFragmentedMP4() throws {
        let directory = try TemporaryDirectory(prefix: "mp4-bad")
        try Data("not an mp4 at all".utf8).write(to: URL(fileURLWithPath: directory.file("x.mp4")))
        #expect(throws: OutputError.self) { try MP4Repair.repair(directory.file("x.mp4"), to: directory.file("y.mp4")) }
        #expect(throws: OutputError.self) { try MP4Repair.repair(directory.file("missing.mp4"), to: directory.file("y.mp4")) }
        // Killed before the first fragment: nothing recorded, which is not damage.
        #expect(FileManager.default.createFile(atPath: directory.file("empty.mp4"), contents: Data()))
        #expect(throws: MP4Repair.NothingRecorded.self) { try MP4Repair.repair(directory.file("empty.mp4"), to: directory.file("y.mp4")) }
    }
}
