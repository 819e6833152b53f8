import Encode
import Foundation
import HLS
import Media
import Outputs
import Synchronization
import TestSupport
import Testing

/// Two renditions of one stream as a ladder: playable once both are published, the multivariant
/// playlists at the top, and each low-latency playlist reporting the other's last part.
@Suite struct HLSLadderOutputTests {
    /// Two rungs over one encoded stream (the same packets in both: what is tested is the
    /// ladder, not the pictures), each output telling the ladder when it is published.
    static func twoRungs(in directory: TemporaryDirectory, onPlayable: @escaping @Sendable () -> Void = {}) throws
        -> (ladder: HLSLadder, outputs: [HLSOutput], streams: EncodedStreams)
    {
        let streams = try EncodedStreams(seconds: 8)
        let rungs = ["720p", "360p"].map { HLSLadder.Rung(name: $0, variant: HLSVariant(uri: $0, bandwidth: 1_000_000, codecs: [])) }
        let ladder = HLSLadder(directory: directory.path, rungs: rungs, captionsLanguage: nil, onPlayable: onPlayable)
        let outputs = try rungs.indices.map { index in
            let output = try HLSOutput(directory: directory.file(rungs[index].name), streams: streams.layout,
                                       lowLatency: HLSLowLatency(partTarget: 0.5), clock: { HLSOutputTests.start })
            output.ladder = (ladder, index)
            output.onPlayable = { ladder.published(rung: index) }
            return output
        }
        return (ladder, outputs, streams)
    }

    @Test func twoRenditionsReportEachOtherAndShareTheMasterPlaylists() throws {
        let directory = try TemporaryDirectory(prefix: "hls-ladder")
        let playable = Atomic<Int>(0)
        let (_, outputs, streams) = try Self.twoRungs(in: directory) { playable.add(1, ordering: .relaxed) }
        var reported: [String] = []
        for packet in streams.packets {
            try outputs[0].write(packet)
            #expect(playable.load(ordering: .relaxed) == 0 || outputs[1].isPublished, "playable before both were published")
            try outputs[1].write(packet)
            if let text = try? String(contentsOfFile: directory.file("720p/live.m3u8"), encoding: .utf8),
               let line = text.split(separator: "\n").last(where: { $0.hasPrefix("#EXT-X-RENDITION-REPORT:") })
            {
                reported.append(String(line))
            }
        }
        #expect(playable.load(ordering: .relaxed) == 1)
        let master = try String(contentsOfFile: directory.file("live_master.m3u8"), encoding: .utf8)
        #expect(master.contains("\n720p/live.m3u8\n") && master.contains("\n360p/live.m3u8\n"), "\(master)")
        // The 720p playlist names the 360p one's last part, which exists.
        let last = try #require(reported.last)
        print("measured: ladder: \(reported.count) playlists with a report; last: \(last)")
        #expect(last.hasPrefix(#"#EXT-X-RENDITION-REPORT:URI="../360p/live.m3u8",LAST-MSN="#))
        let msn = try #require(last.split(separator: ",").first { $0.hasPrefix("LAST-MSN=") }.flatMap { Int($0.dropFirst(9)) })
        let part = try #require(last.split(separator: ",").first { $0.hasPrefix("LAST-PART=") }.flatMap { Int($0.dropFirst(10)) })
        #expect(FileManager.default.fileExists(atPath: directory.file("360p/" + HLSPart.uri(sequence: msn, index: part))), "\(last)")
    }
}

extension HLSLadderOutputTests {
    /// A killed ladder's attempt is finished rendition by rendition, as one stream's would be:
    /// every playlist ended, no part or report left, and the part described from its best
    /// rendition with the size of all of them.
    @Test func aKilledLadderIsFinishedInEachRendition() throws {
        let directory = try TemporaryDirectory(prefix: "hls-ladder-killed")
        let (_, outputs, streams) = try Self.twoRungs(in: directory)
        // Killed mid-stream (published, never finished).
        for packet in streams.packets.prefix(streams.packets.count * 15 / 16) {
            try outputs[0].write(packet)
            try outputs[1].write(packet)
        }
        #expect(OutputPart.ladderRungs(at: directory.path) == ["720p", "360p"])
        #expect(OutputPart.mediaFile(.hls, at: directory.path) == directory.path + "/720p/index.m3u8")
        #expect(OutputPart.finishAbandoned(.hls, at: directory.path) == .complete)
        for name in ["720p", "360p"] {
            let live = try String(contentsOfFile: directory.file("\(name)/live.m3u8"), encoding: .utf8)
            #expect(live.hasSuffix("#EXT-X-ENDLIST\n") && !live.contains("#EXT-X-PART") && !live.contains("RENDITION-REPORT"), "\(name): \(live)")
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.file(name))
            #expect(!files.contains { HLSPart.isPartFile($0) }, "\(name) kept parts")
        }
        let info = try #require(OutputPart.describe(.hls, at: directory.path))
        #expect((info.duration ?? 0) > 4 && info.size > OutputPart.describe(.hls, at: directory.file("720p"))?.size ?? 0, "\(info)")
    }
}
