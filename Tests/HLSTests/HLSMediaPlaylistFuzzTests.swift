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
}
