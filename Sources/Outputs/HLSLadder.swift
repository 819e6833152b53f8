import Foundation
import HLS
import Synchronization

/// The renditions of one HLS stream (`config.renditions`): each rendition is an `HLSOutput` in
/// a directory of its own (`720p/`, `360p/`), and the ladder ties them together. It writes the
/// multivariant playlists at the top, `master.m3u8` (of each `index.m3u8`) and
/// `live_master.m3u8` (of each `live.m3u8`), once every rendition is published, and then
/// reports the stream playable; and it keeps each rendition's last segment and part for the
/// others' low-latency playlists (`EXT-X-RENDITION-REPORT`, draft-pantos-hls-rfc8216bis
/// §4.4.5.4). Each rendition's output runs on its own thread: the state is behind a mutex.
public final class HLSLadder: Sendable {
    /// One rendition as the multivariant playlist lists it.
    public struct Rung: Sendable, Equatable {
        /// Its directory under the ladder's, and its name (`720p`).
        public var name: String
        public var variant: HLSVariant

        public init(name: String, variant: HLSVariant) {
            self.name = name
            self.variant = variant
        }
    }

    private struct State {
        var published: Set<Int> = []
        /// Renditions whose output failed: left out of the multivariant playlists.
        var failed: Set<Int> = []
        var last: [Int: HLSRenditionReport] = [:]
        var announced = false
    }

    public let directory: String
    public let rungs: [Rung]
    /// The captions rendition of the first rung (its directory's `captions*.m3u8`), if any.
    public let captionsLanguage: String?
    private let state = Mutex(State())
    private let onPlayable: @Sendable () -> Void
    /// Where the multivariant playlists also go (the bucket the renditions are mirrored to).
    private let mirror: HLSFileMirror?

    public init(directory: String, rungs: [Rung], captionsLanguage: String?, mirror: HLSFileMirror? = nil,
                onPlayable: @escaping @Sendable () -> Void)
    {
        self.directory = directory
        self.rungs = rungs
        self.captionsLanguage = captionsLanguage
        self.mirror = mirror
        self.onPlayable = onPlayable
    }

    /// Rendition `rung` has published its playlists; once every rendition has (or failed), the
    /// multivariant playlists are written and the stream is playable.
    public func published(rung: Int) {
        announceIfReady { $0.published.insert(rung) }
    }

    /// Rendition `rung`'s output failed: it is left out of the multivariant playlists (if they
    /// are not written yet), and no longer reported to the others.
    public func failed(rung: Int) {
        announceIfReady { state in
            state.failed.insert(rung)
            state.last[rung] = nil
        }
    }

    /// Rendition `rung` ended: its parts are gone, so the others stop reporting them.
    public func ended(rung: Int) {
        state.withLock { $0.last[rung] = nil }
    }

    private func announceIfReady(_ change: (inout State) -> Void) {
        let ready = state.withLock { state -> [Int]? in
            change(&state)
            let live = state.published.subtracting(state.failed)
            guard !state.announced, state.published.union(state.failed).count == rungs.count, !live.isEmpty else { return nil }
            state.announced = true
            return live.sorted()
        }
        guard let ready else { return }
        let captions = captionsLanguage.map { ($0, rungs[ready[0]].name) }
        for (playlist, captionsPlaylist, name) in [(HLSOutput.indexName, HLSOutput.captionsName, HLSOutput.masterName),
                                                   (HLSOutput.liveName, HLSOutput.liveCaptionsName, HLSOutput.liveMasterName)]
        {
            let variants = ready.map { rungs[$0] }.map { rung in
                var variant = rung.variant
                variant.uri = rung.name + "/" + playlist
                return variant
            }
            let text = HLSPlaylist.ladder(variants, captions: captions.map { (uri: $0.1 + "/" + captionsPlaylist, language: $0.0) })
            HLSPlaylist.replaceWhole(directory + "/" + name, with: text)
            mirror?.writtenNamingEarlierPlaylists(name: name, bytes: Array(text.utf8))
        }
        if let mirror { mirror.afterStored(onPlayable) } else { onPlayable() }
    }

    /// Rendition `rung`'s live playlist now ends at segment `lastSequence`, part `lastPart`.
    public func update(rung: Int, lastSequence: Int, lastPart: Int?) {
        guard rung >= 0, rung < rungs.count else { return }
        let report = HLSRenditionReport(uri: "../" + rungs[rung].name + "/" + HLSOutput.liveName, lastSequence: lastSequence, lastPart: lastPart)
        state.withLock { $0.last[rung] = report }
    }

    /// What rendition `rung`'s low-latency playlist says about the others: each one that has
    /// written a live playlist yet.
    public func reports(besides rung: Int) -> [HLSRenditionReport] {
        state.withLock { state in (0..<rungs.count).filter { $0 != rung }.compactMap { state.last[$0] } }
    }
}
