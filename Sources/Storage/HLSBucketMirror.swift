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
/// - A playlist that a newer version of itself already follows in the queue is skipped: a
///   slow bucket costs playlist updates, never segments, and the queue stays short.
/// - Each PUT is retried with backoff; once one gives up, the mirror stops and reports it, and
///   the output fails with that reason (the local files are complete all the same).
// @unchecked Sendable: mutable state (the queue, `busy`, `stopped`, `firstFailure`, `stored`, `renditionsOpen`) guarded by `condition`
public final class HLSBucketMirror: HLSFileMirror, @unchecked Sendable {
    struct Item {
        var name: String
        var bytes: [UInt8]
        var isPlaylist: Bool
        /// A playlist naming the playlists queued before it: none of those is skipped for a
        /// newer copy behind it.
        var namesEarlierPlaylists = false
    }

    public let client: S3Client
    public let prefix: String
    private let condition = NSCondition()
    private var queue: [Item] = []
    private var busy = false
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

    public init(client: S3Client, prefix: String, schedule: RetrySchedule = RetrySchedule(maxAttempts: 6)) {
        self.client = client
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
        condition.lock()
        if firstFailure == nil && !stopped { queue.append(Item(name: name, bytes: bytes, isPlaylist: isPlaylist)) }
        condition.broadcast()
        condition.unlock()
    }

    public func writtenNamingEarlierPlaylists(name: String, bytes: [UInt8]) {
        condition.lock()
        if firstFailure == nil && !stopped { queue.append(Item(name: name, bytes: bytes, isPlaylist: true, namesEarlierPlaylists: true)) }
        condition.broadcast()
        condition.unlock()
    }

    /// Stops at once without waiting for what is queued (a ladder that could not be set up).
    public func abandon() {
        condition.lock()
        stopped = true
        queue.removeAll()
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
        while (!queue.isEmpty || busy) && firstFailure == nil { condition.wait() }
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
        while (!queue.isEmpty || busy) && firstFailure == nil { condition.wait() }
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
            // A newer copy of this playlist is queued behind the segments it names: send that one,
            // unless a playlist that names this one comes between them.
            let barrier = queue.firstIndex { $0.namesEarlierPlaylists } ?? queue.endIndex
            let superseded = item.isPlaylist && queue[..<barrier].contains { $0.isPlaylist && $0.name == item.name }
            busy = !superseded
            condition.unlock()
            if superseded { continue }
            let outcome = send(item)
            condition.lock()
            busy = false
            if let outcome {
                firstFailure = outcome
                queue.removeAll()
            } else {
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

    func finish() throws { try shared.finishRendition() }
}
