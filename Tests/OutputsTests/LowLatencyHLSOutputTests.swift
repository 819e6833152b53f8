import Encode
import Foundation
import HLS
import Media
import Outputs
import Synchronization
import TestSupport
import Testing

/// Low-latency HLS from the output's side: parts of at most the target, independent ones starting
/// with a keyframe, a segment made of exactly its parts, the hint naming the part being made, and
/// the mirror and the finished stream left ordinary.
@Suite struct LowLatencyHLSOutputTests {
    final class RecordingMirror: HLSFileMirror, @unchecked Sendable {
        let files = Mutex<[(name: String, text: String?)]>([])
        func written(name: String, bytes: [UInt8], isPlaylist: Bool) {
            files.withLock { $0.append((name, isPlaylist ? String(decoding: bytes, as: UTF8.self) : nil)) }
        }
        var failure: String? { nil }
        func finish() throws {}
    }

    /// With keyframes a part target apart at the start (what the pipeline asks its encoder for),
    /// the first three segments are a part each and the stream is playable after a second of
    /// media; segments are two seconds from there on. Ordinary HLS waits for three whole ones.
    @Test func aLowLatencyStreamIsPlayableAfterASecond() throws {
        let lowLatency = HLSLowLatency(partTarget: 0.334)
        let start = try #require(HLSOutput.startKeyframes(lowLatency: lowLatency))
        #expect(start.interval == 0.334 && start.count == 3)
        #expect(HLSOutput.startKeyframes(lowLatency: nil) == nil)
        let streams = try EncodedStreams(seconds: 8, keyframes: [10, 20, 30])
        for lowLatency in [lowLatency, nil] {
            let directory = try TemporaryDirectory(prefix: "llhls-start")
            let output = try HLSOutput(directory: directory.path, streams: streams.layout, lowLatency: lowLatency, clock: { HLSOutputTests.start })
            let playableAt = Mutex<Double?>(nil)
            let writing = Mutex(0.0)
            output.onPlayable = { playableAt.withLock { $0 = writing.withLock { $0 } } }
            for packet in streams.packets {
                writing.withLock { $0 = EncodedStreams.time(packet) }
                try output.write(packet)
            }
            let durations = output.writtenSegments.prefix(5).map { ($0.duration * 1000).rounded() / 1000 }
            let playable = try #require(playableAt.withLock { $0 })
            print("measured: \(lowLatency == nil ? "ordinary" : "low-latency") HLS playable at \(playable) s of media; first segments \(durations) s")
            if lowLatency != nil {
                #expect(playable <= 1.05, "playable at \(playable) s")
                // Three short ones, one that gets back on the encode's 2 s cadence, then 2 s.
                #expect(durations.prefix(3).allSatisfy { abs($0 - 0.333) < 0.002 } && durations[3] == 1 && durations[4] == 2, "\(durations)")
                // Each of them is one part.
                for sequence in 0..<3 {
                    #expect(FileManager.default.fileExists(atPath: directory.file(HLSPart.uri(sequence: sequence, index: 0))))
                    #expect(!FileManager.default.fileExists(atPath: directory.file(HLSPart.uri(sequence: sequence, index: 1))), "segment \(sequence) has two parts")
                }
                let live = try String(contentsOfFile: directory.file("live.m3u8"), encoding: .utf8)
                let playlist = HLSMediaPlaylist(text: live)
                #expect(playlist.partTarget == 0.334 && playlist.canBlockReload)
            } else {
                #expect(playable >= 5.9, "ordinary HLS playable at \(playable) s")
                #expect(durations.first.map { $0 >= 2 } == true, "\(durations)")
            }
        }
        // Audio only: the first segments are cut by time, a part each.
        let directory = try TemporaryDirectory(prefix: "llhls-start-audio")
        let audioOnly = StreamLayout(streams: [.init(kind: .audio, parameters: streams.audio.parameters)])
        let output = try HLSOutput(directory: directory.path, streams: audioOnly, lowLatency: lowLatency, clock: { HLSOutputTests.start })
        for packet in streams.packets where packet.stream == .audio { try output.write(packet) }
        let first = output.writtenSegments.prefix(4).map { ($0.duration * 1000).rounded() / 1000 }
        print("measured: audio-only low-latency HLS: first segments \(first) s")
        #expect(first.count == 4 && first.prefix(3).allSatisfy { $0 > 0.3 && $0 <= 0.334 } && first[3] >= 1.99, "\(first)")
    }

    @Test func partsArePublishedAsTheSegmentIsMade() throws {
        let directory = try TemporaryDirectory(prefix: "llhls")
        let streams = try EncodedStreams(seconds: 11)
        let mirror = RecordingMirror()
        let output = try HLSOutput(directory: directory.path, streams: streams.layout, lowLatency: HLSLowLatency(partTarget: 0.5), mirror: mirror,
                                   clock: { HLSOutputTests.start })
        var lastText = ""
        var playlistVersions = 0
        var partsSeen: Set<String> = []
        var snapshot: String?
        for packet in streams.packets {
            try output.write(packet)
            guard let text = try? String(contentsOfFile: directory.file("live.m3u8"), encoding: .utf8), text != lastText else { continue }
            lastText = text
            playlistVersions += 1
            let playlist = HLSMediaPlaylist(text: text)
            #expect(playlist.canBlockReload && playlist.partTarget == 0.5)
            // The hinted part is the one being made: not on disk yet. Every listed part is.
            let hinted = try #require(playlist.hintedPart)
            #expect(!FileManager.default.fileExists(atPath: directory.file(hinted)), "\(hinted) hinted but written")
            for line in text.split(separator: "\n") where line.hasPrefix("#EXT-X-PART:") {
                let attributes = line.dropFirst("#EXT-X-PART:".count)
                let uri = try #require(attributes.split(separator: "\"").dropFirst().first.map(String.init))
                #expect(FileManager.default.fileExists(atPath: directory.file(uri)), "\(uri) listed but missing")
                let duration = try #require(attributes.split(separator: ",").first.flatMap { Double($0.dropFirst("DURATION=".count)) })
                #expect(duration <= 0.5 + 0.001, "\(uri) lasts \(duration) s")
                partsSeen.insert(uri)
            }
            if output.writtenSegments.count == 4 && snapshot == nil { snapshot = text }
        }
        // A part every 0.5 s: two playlist versions a second once published at 6 s.
        #expect(playlistVersions >= 9, "\(playlistVersions) versions of live.m3u8")
        #expect(partsSeen.count >= 12)

        // Before the end: each segment is its parts' bytes, one after another; independent parts
        // (and only they) start with a keyframe.
        let initSegment = try #require(FileManager.default.contents(atPath: directory.file("init.mp4")))
        var independent = 0, dependent = 0
        for segment in output.writtenSegments {
            var joined = Data()
            for index in 0..<8 {
                guard let part = FileManager.default.contents(atPath: directory.file(HLSPart.uri(sequence: segment.sequence, index: index))) else { break }
                joined += part
                let check = directory.file("check-\(segment.sequence)-\(index).mp4")
                try (initSegment + part).write(to: URL(fileURLWithPath: check))
                let first = try MediaProbe.packets(check).first
                let listedIndependent = index == 0
                #expect(first?.keyframe == listedIndependent, "part \(index) of \(segment.uri)")
                if listedIndependent { independent += 1 } else { dependent += 1 }
            }
            #expect(joined == FileManager.default.contents(atPath: directory.file(segment.uri)), "\(segment.uri) is not its parts")
        }
        #expect(independent == 5 && dependent == 15, "\(independent) independent, \(dependent) not")

        // ffmpeg plays the low-latency playlist as an ordinary one.
        let snapshotPath = directory.file("snapshot.m3u8")
        try (try #require(snapshot) + "#EXT-X-ENDLIST\n").write(toFile: snapshotPath, atomically: true, encoding: .utf8)
        let decode = try Tool.run("ffmpeg", ["-nostdin", "-v", "warning", "-xerror", "-i", snapshotPath, "-f", "null", "-"])
        #expect(decode.status == 0 && !decode.standardError.contains("Failed to open segment"), "\(decode.standardError)")

        try output.finish()
        // Finished: ordinary HLS, no part left on disk, and the mirror never saw a part.
        let live = try String(contentsOfFile: directory.file("live.m3u8"), encoding: .utf8)
        #expect(!live.contains("#EXT-X-PART") && live.hasSuffix("#EXT-X-ENDLIST\n"))
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter(HLSPart.isPartFile)
        #expect(left.isEmpty, "\(left)")
        let mirrored = mirror.files.withLock { $0 }
        #expect(!mirrored.contains { HLSPart.isPartFile($0.name) })
        let mirroredLive = mirrored.filter { $0.name == "live.m3u8" }
        // Once per segment from the third, and at the end.
        #expect(mirroredLive.count == 4 && mirroredLive.allSatisfy { !($0.text ?? "").contains("#EXT-X-PART") })
        #expect(try Tool.decodeFully(directory.file("index.m3u8")).status == 0)
    }

    @Test func audioOnlyPartsAreCutByTime() throws {
        let directory = try TemporaryDirectory(prefix: "llhls-audio")
        let streams = try EncodedStreams(seconds: 7)
        let output = try HLSOutput(directory: directory.path, streams: StreamLayout(streams: [.init(kind: .audio, parameters: streams.audio.parameters)]),
                                   lowLatency: HLSLowLatency(partTarget: 0.3))
        var durations: [Double] = []
        for packet in streams.packets where packet.stream == .audio {
            try output.write(packet)
            if let text = try? String(contentsOfFile: directory.file("live.m3u8"), encoding: .utf8) {
                durations = text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-PART:DURATION=") }.compactMap {
                    Double($0.dropFirst("#EXT-X-PART:DURATION=".count).prefix { $0 != "," })
                }
                // Every audio part stands alone.
                #expect(text.components(separatedBy: "#EXT-X-PART:").count - 1 == text.components(separatedBy: "INDEPENDENT=YES").count - 1)
            }
        }
        #expect(!durations.isEmpty && durations.allSatisfy { $0 <= 0.301 && $0 > 0.2 }, "\(durations)")
        try output.finish()
    }

    /// Captions come a segment after their video: once the room's transcription is on,
    /// low-latency players are held back past that; before, three parts behind.
    @Test func aStreamWithCaptionsHoldsPlayersBehindTheCaptionsOnceTranscriptionIsOn() throws {
        let directory = try TemporaryDirectory(prefix: "llhls-captions")
        let streams = try EncodedStreams(seconds: 7)
        let output = try HLSOutput(directory: directory.path, streams: streams.layout, lowLatency: HLSLowLatency(partTarget: 0.334), captions: true)
        // Until the transcription is on (the first published playlist), three parts behind.
        var before: String?
        for packet in streams.packets {
            try output.write(packet)
            if before == nil, let published = try? String(contentsOfFile: directory.file("live.m3u8"), encoding: .utf8) {
                before = published
                output.expectCaptions()
            }
        }
        #expect(before?.contains("PART-HOLD-BACK=1.002,") == true, "\(before ?? "never published")")
        let live = try String(contentsOfFile: directory.file("live.m3u8"), encoding: .utf8)
        #expect(live.contains("PART-HOLD-BACK=4.000,") && live.contains("#EXT-X-PART-INF:PART-TARGET=0.334\n"), "\(live)")
        try output.finish()
    }

    @Test func partTargetsOutsideTheRangeAreRefused() throws {
        let directory = try TemporaryDirectory(prefix: "llhls-bad")
        let streams = try EncodedStreams(seconds: 0.2)
        for target in [0.05, 0.75, 2.5] {
            #expect(throws: OutputError.self, "\(target)") {
                try HLSOutput(directory: directory.path, streams: streams.layout, lowLatency: HLSLowLatency(partTarget: target))
            }
        }
    }
}
