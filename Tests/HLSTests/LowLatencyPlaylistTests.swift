import Foundation
import HLS
import Testing

/// The live playlist with parts, as written and as read back by the origin.
@Suite struct LowLatencyPlaylistTests {
    static let start = Date(timeIntervalSince1970: 1_795_964_035) // 2026-11-29T14:53:55Z

    /// `count` whole segments of 2 s in parts of 0.5 s, and `edgeParts` parts of the next.
    static func playlist(segments count: Int, edgeParts: Int, window: Int = 6) -> String {
        let segments = HLSPlaylistTests.segments(Array(repeating: 2, count: count))
        let parts = (0..<count).flatMap { sequence in
            (0..<4).map { HLSPart(sequence: sequence, index: $0, uri: HLSPart.uri(sequence: sequence, index: $0), duration: 0.5, independent: $0 == 0) }
        }
        let edge = HLSPlaylist.Edge(programDateTime: start.addingTimeInterval(2 * Double(count)),
                                    parts: (0..<edgeParts).map {
                                        HLSPart(sequence: count, index: $0, uri: HLSPart.uri(sequence: count, index: $0), duration: 0.5, independent: $0 == 0)
                                    },
                                    nextPartURI: HLSPart.uri(sequence: count, index: edgeParts))
        return HLSPlaylist.lowLatencyLive(segments: segments, parts: parts, edge: edge, window: window, targetDuration: 2,
                                          lowLatency: HLSLowLatency(partTarget: 0.5))
    }

    @Test func partsAreListedNearTheLiveEdgeOnly() {
        let text = Self.playlist(segments: 5, edgeParts: 2)
        #expect(text == """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:2
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.500,CAN-SKIP-UNTIL=12.000
            #EXT-X-PART-INF:PART-TARGET=0.500
            #EXT-X-MEDIA-SEQUENCE:0
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MAP:URI="init.mp4"
            #EXT-X-PROGRAM-DATE-TIME:2026-11-29T14:53:55.000Z
            #EXTINF:2.000,
            seg_00000.m4s
            #EXT-X-PROGRAM-DATE-TIME:2026-11-29T14:53:57.000Z
            #EXTINF:2.000,
            seg_00001.m4s
            #EXT-X-PROGRAM-DATE-TIME:2026-11-29T14:53:59.000Z
            #EXT-X-PART:DURATION=0.500,URI="seg_00002_part0.m4s",INDEPENDENT=YES
            #EXT-X-PART:DURATION=0.500,URI="seg_00002_part1.m4s"
            #EXT-X-PART:DURATION=0.500,URI="seg_00002_part2.m4s"
            #EXT-X-PART:DURATION=0.500,URI="seg_00002_part3.m4s"
            #EXTINF:2.000,
            seg_00002.m4s
            #EXT-X-PROGRAM-DATE-TIME:2026-11-29T14:54:01.000Z
            #EXT-X-PART:DURATION=0.500,URI="seg_00003_part0.m4s",INDEPENDENT=YES
            #EXT-X-PART:DURATION=0.500,URI="seg_00003_part1.m4s"
            #EXT-X-PART:DURATION=0.500,URI="seg_00003_part2.m4s"
            #EXT-X-PART:DURATION=0.500,URI="seg_00003_part3.m4s"
            #EXTINF:2.000,
            seg_00003.m4s
            #EXT-X-PROGRAM-DATE-TIME:2026-11-29T14:54:03.000Z
            #EXT-X-PART:DURATION=0.500,URI="seg_00004_part0.m4s",INDEPENDENT=YES
            #EXT-X-PART:DURATION=0.500,URI="seg_00004_part1.m4s"
            #EXT-X-PART:DURATION=0.500,URI="seg_00004_part2.m4s"
            #EXT-X-PART:DURATION=0.500,URI="seg_00004_part3.m4s"
            #EXTINF:2.000,
            seg_00004.m4s
            #EXT-X-PROGRAM-DATE-TIME:2026-11-29T14:54:05.000Z
            #EXT-X-PART:DURATION=0.500,URI="seg_00005_part0.m4s",INDEPENDENT=YES
            #EXT-X-PART:DURATION=0.500,URI="seg_00005_part1.m4s"
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="seg_00005_part2.m4s"

            """)
    }

    @Test func thePartTargetIsDeclaredRoundedUp() {
        // Ten pictures at 30 fps are 0.3333 s: the playlist says 0.334, never less than a part lasts.
        let third = HLSLowLatency(partTarget: 0.334)
        #expect(third.declaredPartTarget == 0.334 && HLSLowLatency(partTarget: 1.0 / 3).declaredPartTarget == 0.334)
        #expect(HLSLowLatency(partTarget: 0.5).declaredPartTarget == 0.5 && HLSLowLatency(partTarget: 0.333).declaredPartTarget == 0.333)
        #expect(abs(third.partHoldBack - 1.002) < 1e-9 && third.advancePartLimit == 8)
        let text = HLSPlaylist.lowLatencyLive(segments: [], parts: [], edge: .init(programDateTime: Self.start, parts: [], nextPartURI: "seg_00000_part0.m4s"),
                                              window: 6, targetDuration: 2, lowLatency: third)
        #expect(text.contains("PART-HOLD-BACK=1.002,") && text.contains("#EXT-X-PART-INF:PART-TARGET=0.334\n"))
    }

    @Test func theOriginReadsWhatTheWriterWrote() {
        let playlist = HLSMediaPlaylist(text: Self.playlist(segments: 5, edgeParts: 2))
        #expect(playlist.canBlockReload)
        #expect(playlist.canSkipUntil == 12)
        #expect(playlist.partTarget == 0.5)
        #expect(playlist.targetDuration == 2)
        #expect(!playlist.ended)
        #expect(playlist.segments.map(\.sequence) == [0, 1, 2, 3, 4])
        #expect(playlist.nextSequence == 5)
        #expect(playlist.lastPart == .init(sequence: 5, index: 1))
        #expect(playlist.hintedPart == "seg_00005_part2.m4s")
        // A segment's lines run from its first tag to its URI.
        #expect(playlist.lines[playlist.segments[2].lines.lowerBound] == "#EXT-X-PROGRAM-DATE-TIME:2026-11-29T14:53:59.000Z")
        #expect(playlist.lines[playlist.segments[2].lines.upperBound - 1] == "seg_00002.m4s")
        // Right after a segment is whole, its parts are the last listed.
        let justWhole = HLSMediaPlaylist(text: Self.playlist(segments: 5, edgeParts: 0))
        #expect(justWhole.lastPart == .init(sequence: 4, index: 3))
        #expect(justWhole.hintedPart == "seg_00005_part0.m4s")
    }

    @Test func blockingRequestsWaitAnswerOrAreRefused() throws {
        // Segments 0-4 whole, parts 0 and 1 of segment 5 listed.
        let playlist = HLSMediaPlaylist(text: Self.playlist(segments: 5, edgeParts: 2))
        func decide(_ query: [String: String]) throws -> HLSDeliveryDirectives.Decision {
            try HLSDeliveryDirectives(query: query).decide(playlist)
        }
        #expect(try decide([:]) == .answer)
        #expect(try decide(["_HLS_msn": "4"]) == .answer)
        #expect(try decide(["_HLS_msn": "5"]) == .wait)
        #expect(try decide(["_HLS_msn": "6"]) == .wait)
        #expect(try decide(["_HLS_msn": "5", "_HLS_part": "1"]) == .answer)
        #expect(try decide(["_HLS_msn": "5", "_HLS_part": "2"]) == .wait)
        // An old segment's part: answered (the whole playlist, §6.2.5.2).
        #expect(try decide(["_HLS_msn": "1", "_HLS_part": "3"]) == .answer)
        // More than two segments ahead, or more parts ahead than the Advance Part Limit (6 at 0.5 s).
        guard case .refuse = try decide(["_HLS_msn": "7"]) else { Issue.record("msn 7 not refused"); return }
        #expect(try decide(["_HLS_msn": "6", "_HLS_part": "3"]) == .wait)
        guard case .refuse = try decide(["_HLS_msn": "6", "_HLS_part": "4"]) else { Issue.record("a part 7 ahead not refused"); return }
        // A part past a whole segment's last is part 0 of the next.
        let justWhole = HLSMediaPlaylist(text: Self.playlist(segments: 5, edgeParts: 0))
        #expect(try HLSDeliveryDirectives(query: ["_HLS_msn": "4", "_HLS_part": "4"]).decide(justWhole) == .wait)
        let nextStarted = HLSMediaPlaylist(text: Self.playlist(segments: 5, edgeParts: 1))
        #expect(try HLSDeliveryDirectives(query: ["_HLS_msn": "4", "_HLS_part": "4"]).decide(nextStarted) == .answer)
        // An ended playlist, or one that offers no blocking, is answered as it is.
        let ended = HLSMediaPlaylist(text: HLSPlaylist.live(segments: HLSPlaylistTests.segments([2, 2, 2]), window: 6, targetDuration: 2, ended: true))
        #expect(try HLSDeliveryDirectives(query: ["_HLS_msn": "9"]).decide(ended) == .answer)
        let ordinary = HLSMediaPlaylist(text: HLSPlaylist.live(segments: HLSPlaylistTests.segments([2, 2, 2]), window: 6, targetDuration: 2, ended: false))
        #expect(try HLSDeliveryDirectives(query: ["_HLS_msn": "9"]).decide(ordinary) == .answer)
    }

    @Test func malformedDirectivesAreRefused() throws {
        for query in [["_HLS_part": "1"], ["_HLS_msn": "-1"], ["_HLS_msn": "1e3"], ["_HLS_msn": ""], ["_HLS_msn": "99999999999999999999"],
                      ["_HLS_msn": "1", "_HLS_part": "x"], ["_HLS_skip": "NO"]]
        {
            #expect(throws: HLSDeliveryDirectives.Malformed.self, "\(query)") { try HLSDeliveryDirectives(query: query) }
        }
        #expect(try HLSDeliveryDirectives(query: ["_HLS_skip": "v2", "other": "x"]) == HLSDeliveryDirectives(skip: true))
    }

    @Test func aDeltaUpdateSkipsWhatIsOlderThanTheBoundary() throws {
        // 12 whole segments of 2 s: the skip boundary is 12 s, so the 5 oldest (whose ends are
        // more than 12 s from the end) are skipped.
        let text = Self.playlist(segments: 12, edgeParts: 1, window: 12)
        let playlist = HLSMediaPlaylist(text: text)
        let delta = try #require(playlist.deltaUpdate())
        #expect(delta.contains("#EXT-X-VERSION:9\n"))
        #expect(delta.contains("#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXT-X-SKIP:SKIPPED-SEGMENTS=5\n"
            + "#EXT-X-PROGRAM-DATE-TIME:2026-11-29T14:54:05.000Z\n#EXTINF:2.000,\nseg_00005.m4s\n"))
        #expect(!delta.contains("seg_00004.m4s"))
        #expect(delta.hasSuffix("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"seg_00012_part1.m4s\"\n"))
        // Read back, the delta says the same about the live edge.
        let reread = HLSMediaPlaylist(text: delta)
        #expect(reread.lastPart == playlist.lastPart)
        #expect(reread.hintedPart == playlist.hintedPart)
        // The default window of six has nothing old enough: the whole playlist is the answer.
        #expect(HLSMediaPlaylist(text: Self.playlist(segments: 12, edgeParts: 1)).deltaUpdate() == nil)
    }

    @Test func anAbandonedLivePlaylistIsEndedWithoutItsParts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hls-abandoned-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("live.m3u8").path
        try Self.playlist(segments: 5, edgeParts: 2).write(toFile: path, atomically: true, encoding: .utf8)
        HLSPlaylist.endAbandonedLive(atPath: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("PART") && !text.contains("PRELOAD") && !text.contains("SERVER-CONTROL"))
        #expect(text.hasSuffix("#EXTINF:2.000,\nseg_00004.m4s\n#EXT-X-ENDLIST\n"))
        #expect(HLSMediaPlaylist(text: text).segments.count == 5)
    }
}
