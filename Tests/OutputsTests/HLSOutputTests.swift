import Encode
import Foundation
import Media
import Outputs
import Synchronization
import TestSupport
import Testing

@Suite struct HLSOutputTests {
    static let start = Date(timeIntervalSince1970: 1_795_964_035)

    @Test func segmentsStartOnKeyframesAndThePlaylistsPlay() throws {
        let directory = try TemporaryDirectory(prefix: "hls")
        let streams = try EncodedStreams(seconds: 11)
        let playable = Atomic<Int>(0)
        let output = try HLSOutput(directory: directory.path, streams: streams.layout, clock: { Self.start })
        output.onPlayable = { playable.add(1, ordering: .relaxed) }
        var publishedAt: Int?
        for packet in streams.packets {
            try output.write(packet)
            let exists = FileManager.default.fileExists(atPath: directory.file("live.m3u8"))
            if exists && publishedAt == nil { publishedAt = output.writtenSegments.count }
            // Nothing is published before three segments exist.
            if output.writtenSegments.count < 3 {
                #expect(!exists)
                #expect(!FileManager.default.fileExists(atPath: directory.file("index.m3u8")))
            }
        }
        try output.finish()
        #expect(publishedAt == 3)
        #expect(playable.load(ordering: .relaxed) == 1)
        let segments = output.writtenSegments
        #expect(segments.count == 6)
        #expect(segments.dropLast().allSatisfy { abs($0.duration - 2) < 0.001 })
        #expect(abs((segments.last?.duration ?? 0) - 1) < 0.05)
        // Program date-times follow media time from the injected clock.
        #expect(segments[2].programDateTime == Self.start.addingTimeInterval(4))

        let index = directory.file("index.m3u8")
        let text = try String(contentsOfFile: index, encoding: .utf8)
        #expect(text.hasSuffix("#EXT-X-ENDLIST\n"))
        #expect(text.contains("#EXT-X-TARGETDURATION:2\n"))
        let probe = try MediaProbe.probe(index)
        #expect(abs((probe.format.durationSeconds ?? 0) - 11) < 0.1)
        let decode = try Tool.run("ffmpeg", ["-nostdin", "-v", "warning", "-xerror", "-i", index, "-f", "null", "-"])
        #expect(decode.status == 0)
        #expect(!decode.standardError.contains("Failed to open segment"), "\(decode.standardError)")
        // Each segment, after the init segment, starts with a keyframe and lasts within the target.
        let initSegment = try #require(FileManager.default.contents(atPath: directory.file("init.mp4")))
        for segment in segments {
            let data = try #require(FileManager.default.contents(atPath: directory.file(segment.uri)))
            let joined = directory.file("check-\(segment.sequence).mp4")
            try (initSegment + data).write(to: URL(fileURLWithPath: joined))
            let packets = try MediaProbe.packets(joined)
            #expect(packets.first?.keyframe == true, "\(segment.uri) does not start with a keyframe")
            #expect(segment.duration.rounded() <= 2)
        }
        // live.m3u8 keeps the last six.
        let live = try String(contentsOfFile: directory.file("live.m3u8"), encoding: .utf8)
        #expect(live.contains("#EXT-X-MEDIA-SEQUENCE:0\n"))
        #expect(try MediaProbe.probe(directory.file("live.m3u8")).video?.codecName == "h264")
    }

    @Test func theLiveWindowSlidesAsSegmentsArrive() throws {
        let directory = try TemporaryDirectory(prefix: "hls-live")
        let streams = try EncodedStreams(seconds: 21)
        let output = try HLSOutput(directory: directory.path, streams: streams.layout, window: 4, clock: { Self.start })
        var sequences: [String] = []
        for packet in streams.packets {
            try output.write(packet)
            if let text = try? String(contentsOfFile: directory.file("live.m3u8"), encoding: .utf8),
               let line = text.split(separator: "\n").first(where: { $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") }),
               sequences.last != String(line)
            {
                sequences.append(String(line))
                #expect(text.components(separatedBy: "#EXTINF").count - 1 <= 4)
            }
        }
        #expect(sequences == (0...6).map { "#EXT-X-MEDIA-SEQUENCE:\($0)" })
        try output.finish()
        let last = try String(contentsOfFile: directory.file("live.m3u8"), encoding: .utf8)
        #expect(last.contains("#EXT-X-MEDIA-SEQUENCE:7\n"))
        #expect(last.hasSuffix("#EXT-X-ENDLIST\n"))
    }

    @Test func audioOnlyIsSegmentedByTime() throws {
        let directory = try TemporaryDirectory(prefix: "hls-audio")
        let streams = try EncodedStreams(seconds: 7)
        let output = try HLSOutput(directory: directory.path,
                                   streams: StreamLayout(streams: [.init(kind: .audio, parameters: streams.audio.parameters)]))
        for packet in streams.packets where packet.stream == .audio { try output.write(packet) }
        try output.finish()
        #expect(output.writtenSegments.count == 4)
        #expect(try Tool.decodeFully(directory.file("index.m3u8")).status == 0)
    }

    /// With captions: a WebVTT rendition whose segments match the video's one for one, the
    /// multivariant playlists that offer it, and the cues where the speech was. (FFmpeg 5.1's
    /// HLS reader does not take subtitle renditions; hls.js plays them in
    /// LiveHLSCaptionsTests.)
    @Test func captionsAreARenditionAlignedWithTheVideo() throws {
        let directory = try TemporaryDirectory(prefix: "hls-captions")
        let streams = try EncodedStreams(seconds: 11)
        let output = try HLSOutput(directory: directory.path, streams: streams.layout, captions: true, clock: { Self.start })
        var added = false
        for packet in streams.packets {
            try output.write(packet)
            // Heard while the third segment is written: said during the second and third.
            if !added && EncodedStreams.time(packet) >= 5.5 {
                added = true
                output.add(caption: Caption(participantID: "a", name: "Alice", text: "the meeting starts at nine", start: 3.0, end: 4.5))
                #expect(!FileManager.default.fileExists(atPath: directory.file("captions_00001.vtt")))
            }
            // A segment's captions come one segment after it.
            let captionFiles = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".vtt") }.count
            #expect(captionFiles == max(0, output.writtenSegments.count - 1))
        }
        output.add(caption: Caption(participantID: "b", name: "Bob", text: "see you then", start: 10.2, end: 10.8))
        try output.finish()
        #expect(output.droppedCaptions == 0)

        let index = try String(contentsOfFile: directory.file("index.m3u8"), encoding: .utf8)
        let captions = try String(contentsOfFile: directory.file("captions.m3u8"), encoding: .utf8)
        let durations = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix("#EXTINF") || $0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME") } }
        #expect(durations(captions) == durations(index))
        #expect(captions.contains("captions_00005.vtt\n#EXT-X-ENDLIST\n") && !captions.contains("#EXT-X-MAP"))
        let master = try String(contentsOfFile: directory.file("master.m3u8"), encoding: .utf8)
        #expect(master.contains("#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"captions\",NAME=\"Captions\",LANGUAGE=\"en\""))
        #expect(master.contains("URI=\"captions.m3u8\""))
        #expect(master.contains("CODECS=\"avc1.") && master.contains(",mp4a.40.2\",RESOLUTION=") && master.hasSuffix("SUBTITLES=\"captions\"\nindex.m3u8\n"))
        let liveMaster = try String(contentsOfFile: directory.file("live_master.m3u8"), encoding: .utf8)
        #expect(liveMaster.contains("URI=\"captions_live.m3u8\"") && liveMaster.hasSuffix("\nlive.m3u8\n"))

        // The cue is in the segments of 2–4 s and 4–6 s, at its own times.
        for name in ["captions_00001.vtt", "captions_00002.vtt"] {
            let segment = try String(contentsOfFile: directory.file(name), encoding: .utf8)
            #expect(segment.contains("00:00:03.000 --> 00:00:04.500\n<v Alice>the meeting starts at nine</v>"), "\(name): \(segment)")
        }
        #expect(try String(contentsOfFile: directory.file("captions_00005.vtt"), encoding: .utf8).contains("<v Bob>see you then</v>"))

        // Every segment the captions playlist names is whole on disk.
        for uri in captions.split(separator: "\n").filter({ $0.hasSuffix(".vtt") }) {
            #expect(try String(contentsOfFile: directory.file(String(uri)), encoding: .utf8).hasPrefix("WEBVTT\nX-TIMESTAMP-MAP="))
        }
    }

    @Test func badSettingsAreRefused() throws {
        let directory = try TemporaryDirectory(prefix: "hls-bad")
        let streams = try EncodedStreams(seconds: 0.1)
        #expect(throws: OutputError.self) { try HLSOutput(directory: directory.path, streams: streams.layout, segmentDuration: 0.1) }
        #expect(throws: OutputError.self) { try HLSOutput(directory: directory.path, streams: streams.layout, window: 2) }
    }
}
