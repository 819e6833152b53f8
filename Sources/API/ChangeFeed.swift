import Foundation
import HTTP
import Log

/// `GET /v2/changes`: server-sent events
/// (https://html.spec.whatwg.org/multipage/server-sent-events.html) that tell a watcher, such as
/// the console, that what the REST API shows has changed, so that it asks again at once instead
/// of polling: `jobs` (a job made, deleted, or changing state), `rooms` (sessions and who is in
/// them, and what they publish) and `nodes` (a node joining, leaving, draining, or its load).
/// Each event is `event: change`, `data: {"changed": ["jobs", …]}` with a rising `id`; the data is
/// only a nudge, the REST API stays the one source of what is.
///
/// One thread looks every `interval` (a few small queries, whatever the number of watchers) while
/// any stream is open, and writes each event to every stream; a stream that takes no bytes for
/// `writeTimeout` is closed. A comment line every `keepAliveInterval` keeps proxies from closing
/// an idle stream and finds watchers that left. At most `capacity` streams; more are 503.
// @unchecked Sendable: `streams`, `looking`, `last` and `nextID` guarded by `lock`; the looking thread alone writes to the streams
final class ChangeFeed: @unchecked Sendable {
    /// What each topic looked like at one look: equal strings, nothing changed.
    struct Fingerprint: Equatable, Sendable {
        var jobs: String
        var rooms: String
        var nodes: String

        /// The topics that differ, in a fixed order.
        func changed(since earlier: Fingerprint) -> [String] {
            var topics: [String] = []
            if jobs != earlier.jobs { topics.append("jobs") }
            if rooms != earlier.rooms { topics.append("rooms") }
            if nodes != earlier.nodes { topics.append("nodes") }
            return topics
        }
    }

    private let lock = NSLock()
    private var streams: [HTTPConnection] = []
    private var looking = false
    private var last: Fingerprint?
    private var nextID = 1
    private var fingerprint: (@Sendable () throws -> Fingerprint)?
    private let logger = Logger(label: "api")
    let capacity: Int
    let interval: Double
    let keepAliveInterval: Double
    let writeTimeout: Double

    init(capacity: Int = 64, interval: Double = 1, keepAliveInterval: Double = 15, writeTimeout: Double = 2) {
        self.capacity = capacity
        self.interval = interval
        self.keepAliveInterval = keepAliveInterval
        self.writeTimeout = writeTimeout
    }

    /// What each look reads (set once its owner exists; a look before it finds no change).
    func watch(_ fingerprint: @escaping @Sendable () throws -> Fingerprint) {
        lock.withLock { self.fingerprint = fingerprint }
    }

    /// Streams open now.
    var count: Int { lock.withLock { streams.count } }

    /// Whether another stream may open.
    var hasRoom: Bool { count < capacity }

    /// The head of a stream's answer.
    static var streamHead: HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store"),
                                            ("X-Accel-Buffering", "no")],
                     body: .streamed)
    }

    /// Takes over an answered stream's connection (on one of the server's worker threads).
    func adopt(_ connection: HTTPConnection) {
        // The browser waits 2 s before it reconnects after the stream breaks.
        guard connection.write(Array("retry: 2000\n: revue changes\n\n".utf8), deadline: HTTPConnection.now() + writeTimeout) else {
            connection.close()
            return
        }
        let start = lock.withLock { () -> Bool in
            streams.append(connection)
            guard !looking else { return false }
            looking = true
            return true
        }
        if start {
            let thread = Thread { [self] in look() }
            thread.name = "revue-changes"
            thread.start()
        }
    }

    /// The looking thread: runs while any stream is open.
    private func look() {
        var lastWrite = HTTPConnection.now()
        while true {
            Thread.sleep(forTimeInterval: interval)
            let open = lock.withLock { () -> [HTTPConnection] in
                if streams.isEmpty {
                    looking = false
                    last = nil
                }
                return streams
            }
            if open.isEmpty { return }
            var message: [UInt8]?
            do {
                guard let read = lock.withLock({ fingerprint }) else { continue }
                let now = try read()
                let topics = lock.withLock { () -> [String] in
                    defer { last = now }
                    guard let last else { return [] }
                    return now.changed(since: last)
                }
                if !topics.isEmpty {
                    let id = lock.withLock { () -> Int in
                        defer { nextID += 1 }
                        return nextID
                    }
                    let list = topics.map { "\"\($0)\"" }.joined(separator: ",")
                    message = Array("id: \(id)\nevent: change\ndata: {\"changed\":[\(list)]}\n\n".utf8)
                }
            } catch {
                logger.warning("the change feed could not look", ["error": .string("\(error)")])
            }
            let clock = HTTPConnection.now()
            if message == nil && clock - lastWrite >= keepAliveInterval { message = Array(": keep-alive\n\n".utf8) }
            guard let message else { continue }
            lastWrite = clock
            var gone: [ObjectIdentifier] = []
            for stream in open where !stream.write(message, deadline: HTTPConnection.now() + writeTimeout) {
                gone.append(ObjectIdentifier(stream))
                stream.close()
            }
            if !gone.isEmpty { lock.withLock { streams.removeAll { gone.contains(ObjectIdentifier($0)) } } }
        }
    }
}
