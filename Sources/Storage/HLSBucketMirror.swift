import Foundation
import JobSpec
import Outputs

/// Puts an HLS output's files into the bucket as they are written (`prefix/init.mp4`,
/// `prefix/seg_NNNNN.m4s`, `prefix/index.m3u8`, `prefix/live.m3u8`), so a CDN or the bucket's
/// own URL serves the stream while it is live: one per HLS output, or one for a whole ladder
/// (`rendition(_:)`). docs/STORAGE.md.
///
/// - One thread sends the files in the order the output wrote them: a segment is in the bucket
///   before any playlist that names it (a missing segment is fatal in Chromium).
/// - A playlist queued again replaces its copy still waiting (unless a barrier stands between
///   them, below): a slow bucket costs playlist updates, never segments, and a stalled one's
///   queue holds one copy of each playlist.
/// - A barrier keeps the playlists queued before it: a ladder's multivariant playlist (which
///   names them) and `afterStored`'s action (which says they are in the bucket).
/// - Each PUT is retried with backoff; once one gives up, the mirror stops and reports it, and
///   the output fails with that reason (the local files are complete all the same).
/// - The queue is bounded (`maxQueuedBytes`): a bucket that falls that far behind (stalled, or
///   slower than the stream) fails the mirror the same way, rather than growing the job's memory
///   without end.
// @unchecked Sendable: mutable state (the queue, `queuedBytes`, `busy`, `runningAction`, `stopped`, `firstFailure`, `stored`, `renditionsOpen`) guarded by `condition`
public final class HLSBucketMirror: HLSFileMirror, @unchecked Sendable {
    struct Item {
        var name: String
        var bytes: [UInt8]
        var isPlaylist: Bool
        /// Playlists queued before this one are never replaced by a copy queued after it.
        var isBarrier = false
        /// Run when this item's turn comes (`afterStored`), instead of a PUT.
        var action: (@Sendable () -> Void)?
        var queuedAt = Date()
    }

    /// The most a mirror holds for the bucket by default: 32 MiB, over 100 s of a 720p stream
    /// (2.5 Mb/s and its audio), about a minute of a 720p/480p/360p ladder and half a minute of
    /// one topped by 1080p. Longer than a refused PUT's retries take to give up (15.5 s); a
    /// bucket that stalls each PUT until its timeout fails the mirror through this limit first.
    public static let defaultMaxQueuedBytes = 32 << 20

    public let client: S3Client
    public let prefix: String
    private let condition = NSCondition()
    private var queue: [Item] = []
    private var queuedBytes = 0
    public let maxQueuedBytes: Int
    private var busy = false
    /// An `afterStored` action is running: `finish()` waits for it even after a failure, so
    /// what it reports (the stream playable) never comes after the output's end.
    private var runningAction = false
    private var stopped = false
    private var firstFailure: String?
    private var thread: Thread?
    private let schedule: RetrySchedule
    private var stored = 0
    /// Renditions of a ladder (`rendition(_:)`) that have not finished; the mirror stops once
    /// the last one has.
    private var renditionsOpen = 0

    /// Files stored so far (for tests and logs).
    public var uploaded: Int {
        condition.lock()
        defer { condition.unlock() }
        return stored
    }

    /// Bytes waiting for the bucket (for tests and logs).
    public var waitingBytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return queuedBytes
    }

    public init(client: S3Client, prefix: String, schedule: RetrySchedule = RetrySchedule(maxAttempts: 6),
                maxQueuedBytes: Int = HLSBucketMirror.defaultMaxQueuedBytes)
    {
        self.client = client
        self.maxQueuedBytes = maxQueuedBytes
        self.prefix = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        self.schedule = schedule
        // The thread holds the mirror until `finish()` stops it.
        let thread = Thread { self.run() }
        thread.name = "hls bucket mirror"
        self.thread = thread
        thread.start()
    }

    deinit {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    public func written(name: String, bytes: [UInt8], isPlaylist: Bool) {
        enqueue(Item(name: name, bytes: bytes, isPlaylist: isPlaylist))
    }

    public func writtenNamingEarlierPlaylists(name: String, bytes: [UInt8]) {
        enqueue(Item(name: name, bytes: bytes, isPlaylist: true, isBarrier: true))
    }

    /// Runs `action` on the mirror's thread once every file written before this call is in the
    /// bucket (a newer copy of a playlist may be there instead, if one was written before this
    /// call); never if the mirror fails or is abandoned first. The stream is playable from the
    /// bucket then, not when the files are written locally.
    public func afterStored(_ action: @escaping @Sendable () -> Void) {
        enqueue(Item(name: "", bytes: [], isPlaylist: false, isBarrier: true, action: action))
    }

    private func enqueue(_ item: Item) {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        guard firstFailure == nil && !stopped else { return }
        if item.isPlaylist {
            // The copy still waiting, with no barrier after it, would only be overtaken by this one.
            let afterBarrier = queue.lastIndex { $0.isBarrier }.map { $0 + 1 } ?? 0
            if let earlier = queue[afterBarrier...].firstIndex(where: { $0.isPlaylist && $0.name == item.name }) {
                queuedBytes -= queue.remove(at: earlier).bytes.count
            }
        }
        queue.append(item)
        queuedBytes += item.bytes.count
        // What waits behind the first file counts: one larger than the limit alone (a long
        // segment, its playlists queued right after it) waits its turn.
        if queuedBytes - (queue.first?.bytes.count ?? 0) > maxQueuedBytes {
            let waited = queue.first.map { Date().timeIntervalSince($0.queuedAt) } ?? 0
            firstFailure = "the bucket fell behind: over \(maxQueuedBytes >> 20) MiB of HLS files waited for it, the oldest written \(Int(waited)) s before"
            queue.removeAll()
            queuedBytes = 0
        }
    }

    /// Stops at once without waiting for what is queued (a ladder that could not be set up).
    public func abandon() {
        condition.lock()
        stopped = true
        queue.removeAll()
        queuedBytes = 0
        condition.broadcast()
        condition.unlock()
    }

    public var failure: String? {
        condition.lock()
        defer { condition.unlock() }
        return firstFailure
    }

    public func finish() throws {
        condition.lock()
        while runningAction || ((!queue.isEmpty || busy) && firstFailure == nil) { condition.wait() }
        stopped = true
        condition.broadcast()
        let failure = firstFailure
        condition.unlock()
        if let failure { throw StorageError.transport("mirror HLS to \(client.name(prefix))/", failure) }
    }

    /// The mirror of one rendition of a ladder (`config.renditions`): its files go under
    /// `subdirectory/`, through this mirror's one queue, so the ladder's multivariant playlists
    /// (written here after every rendition has published its own) never reach the bucket before
    /// the playlists they name. The mirror stops when the last rendition finishes.
    public func rendition(_ subdirectory: String) -> HLSFileMirror {
        condition.lock()
        renditionsOpen += 1
        condition.unlock()
        return RenditionMirror(shared: self, subdirectory: subdirectory)
    }

    /// A rendition's end: what it wrote is in the bucket (or the first failure is thrown); the
    /// last rendition's end stops the mirror.
    fileprivate func finishRendition() throws {
        condition.lock()
        while runningAction || ((!queue.isEmpty || busy) && firstFailure == nil) { condition.wait() }
        renditionsOpen -= 1
        if renditionsOpen <= 0 { stopped = true }
        condition.broadcast()
        let failure = firstFailure
        condition.unlock()
        if let failure { throw StorageError.transport("mirror HLS to \(client.name(prefix))/", failure) }
    }

    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopped { condition.wait() }
            if queue.isEmpty {
                condition.unlock()
                return
            }
            let item = queue.removeFirst()
            queuedBytes -= item.bytes.count
            busy = true
            runningAction = item.action != nil
            condition.unlock()
            var outcome: String?
            if let action = item.action { action() } else { outcome = send(item) }
            condition.lock()
            busy = false
            runningAction = false
            if let outcome {
                if firstFailure == nil { firstFailure = outcome }
                queue.removeAll()
                queuedBytes = 0
            } else if item.action == nil {
                stored += 1
            }
            condition.broadcast()
            condition.unlock()
        }
    }

    /// PUTs one file with retries; returns why it failed, or nil.
    private func send(_ item: Item) -> String? {
        var schedule = self.schedule
        let contentType = item.name.hasSuffix(".m3u8") ? "application/vnd.apple.mpegurl" : item.name.hasSuffix(".m4s") ? "video/iso.segment" : "video/mp4"
        // Playlists change every segment; segments never change once written.
        let cacheControl = item.isPlaylist ? "no-cache" : "max-age=31536000, immutable"
        while true {
            do throws(StorageError) {
                try client.putObject(key: "\(prefix)/\(item.name)", bytes: item.bytes, contentType: contentType, cacheControl: cacheControl)
                return nil
            } catch {
                // Failed meanwhile (the queue overflowed): nothing will use this file.
                if let failure = failure { return failure }
                let now = Date().timeIntervalSince1970
                switch schedule.failed(retryable: error.isRetryable, now: now) {
                case .giveUp: return error.description
                case .retry(let at): Thread.sleep(forTimeInterval: max(0, at - now))
                }
            }
        }
    }
}

/// One rendition's view of a ladder's shared mirror: its file names under its subdirectory.
private final class RenditionMirror: HLSFileMirror {
    let shared: HLSBucketMirror
    let subdirectory: String

    init(shared: HLSBucketMirror, subdirectory: String) {
        self.shared = shared
        self.subdirectory = subdirectory
    }

    func written(name: String, bytes: [UInt8], isPlaylist: Bool) {
        shared.written(name: subdirectory + "/" + name, bytes: bytes, isPlaylist: isPlaylist)
    }

    var failure: String? { shared.failure }

    func afterStored(_ action: @escaping @Sendable () -> Void) { shared.afterStored(action) }

    func finish() throws { try shared.finishRendition() }
}
