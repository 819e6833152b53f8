import HLS
import TestKit
import Testing

/// The origin reads playlists from disk and queries from anyone: random and mutated input gives
/// an answer, never a crash.
@Suite struct HLSMediaPlaylistFuzzTests {
    @Test func mutatedPlaylistsAndQueriesNeverCrash() {
        var generator = SeededGenerator(seed: 0x11_4C5)
        let seed = Array(LowLatencyPlaylistTests.playlist(segments: 12, edgeParts: 2, window: 12).utf8)
        var withSegments = 0, withParts = 0, deltas = 0, decisions: [String: Int] = [:]
        for round in 0..<2000 {
            let bytes = round % 4 == 0 ? generator.bytes(Int(generator.next() % 512)) : generator.mutate(seed)
            let playlist = HLSMediaPlaylist(text: String(decoding: bytes, as: UTF8.self))
            if !playlist.segments.isEmpty { withSegments += 1 }
            if playlist.lastPart != nil { withParts += 1 }
            if let delta = playlist.deltaUpdate() {
                deltas += 1
                // A delta is a playlist too.
                _ = HLSMediaPlaylist(text: delta)
            }
            let query = ["_HLS_msn": String(Int(generator.next() % 40) - 5), "_HLS_part": String(generator.next() % 12)]
            if let directives = try? HLSDeliveryDirectives(query: query) {
                let key = switch directives.decide(playlist) {
                case .answer: "answer"
                case .wait: "wait"
                case .refuse: "refuse"
                }
                decisions[key, default: 0] += 1
            }
        }
        // The mutations kept enough of the playlist for every path to be taken.
        #expect(withSegments > 500 && withParts > 500 && deltas > 100, "\(withSegments) \(withParts) \(deltas)")
        #expect(decisions.count == 3, "\(decisions)")
    }

    /// Numbers at the edges of what the reader takes: answers, never a trap.
    @Test func extremeNumbersGetAnswers() throws {
        let huge = """
            #EXTM3U
            #EXT-X-TARGETDURATION:86400
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=1e-17
            #EXT-X-PART-INF:PART-TARGET=0.01
            #EXT-X-MEDIA-SEQUENCE:1099511627776
            #EXT-X-PART:DURATION=0.01,URI="a.m4s"
            #EXTINF:1e308,
            a.m4s
            #EXTINF:0.1,
            b.m4s
            #EXTINF:0.2,
            c.m4s
            #EXT-X-PART:DURATION=0.01,URI="d.m4s"

            """
        let playlist = HLSMediaPlaylist(text: huge)
        #expect(playlist.segments.count == 3 && playlist.lastPart == .init(sequence: 1_099_511_627_779, index: 0))
        #expect(try HLSDeliveryDirectives(query: ["_HLS_msn": "0", "_HLS_part": "0"]).decide(playlist) == .answer)
        guard case .refuse = try HLSDeliveryDirectives(query: ["_HLS_msn": "1099511627780", "_HLS_part": "999999999999999999"]).decide(playlist) else {
            Issue.record("a part far ahead was not refused")
            return
        }
        // Whatever the durations and the boundary, a delta keeps the last segment.
        if let delta = playlist.deltaUpdate() { #expect(delta.contains("c.m4s")) }
        for boundary in ["1e-17", "0.05", "1e308"] {
            _ = HLSMediaPlaylist(text: huge.replacingOccurrences(of: "CAN-SKIP-UNTIL=1e-17", with: "CAN-SKIP-UNTIL=\(boundary)")).deltaUpdate()
        }
    }
}
