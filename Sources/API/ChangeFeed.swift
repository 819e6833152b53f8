import Foundation
import HTTP
import Log

/// `GET /v2/changes`: server-sent events
/// (https://html.spec.whatwg.org/multipage/server-sent-events.html) that tell a watcher, such as
/// the console, that what the REST API shows has changed, so that it asks again at once instead
/// of polling: `jobs` (a job made or changing state), `rooms` (sessions and who is in them, and
/// what they publish) and `nodes` (a node joining, leaving, draining, or its load). Each event is
/// `event: change`, `data: {"changed": ["jobs", …]}` with a rising `id`; the data is only a
/// nudge, the REST API stays the one source of what is.
///
/// One thread looks every `interval` (a few small queries, whatever the number of watchers) while
/// any stream is open, and writes each event to every stream; a stream that takes no bytes for
/// `writeTimeout`, whose watcher hung up, or whose token expired is closed. A comment line every
/// `keepAliveInterval` keeps proxies from closing an idle stream. At most `capacity` streams, and
/// `perSourceLimit` from one address; more are refused.
// @unchecked Sendable: `streams`, `looking`, `last`, `nextID` and `fingerprint` guarded by `lock`; the looking thread alone writes to the streams
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

    private struct Stream {
        let connection: HTTPConnection
        /// When its token expires; the stream is closed then.
        let until: Date?
    }

    static let perSourceLimit = 8

    private let lock = NSLock()
    private var streams: [Stream] = []
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

    /// Whether a stream from `address` may open (asked before answering; `adopt` asks again).
    func hasRoom(for address: String) -> Bool {
        lock.withLock { Self.admits(streams, address: address, capacity: capacity) }
    }

    private static func admits(_ streams: [Stream], address: String, capacity: Int) -> Bool {
        streams.count < capacity && streams.count(where: { $0.connection.remoteAddress == address }) < perSourceLimit
    }

    /// The head of a stream's answer.
    static var streamHead: HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store"),
                                            ("X-Accel-Buffering", "no")],
                     body: .streamed)
    }

    /// Takes over an answered stream's connection (on one of the server's worker threads), until
    /// `until` (the token's expiry). One that came past the limits in a race is told to come back
    /// in a minute and closed. Only the looking thread closes a stream once it is in `streams`
    /// (a descriptor closed elsewhere could be reused by another connection while it writes).
    func adopt(_ connection: HTTPConnection, until: Date?) {
        let refuse = {
            connection.write(Array("retry: 60000\n: too many change streams\n\n".utf8), deadline: HTTPConnection.now() + self.writeTimeout)
            connection.close()
        }
        guard hasRoom(for: connection.remoteAddress) else { return refuse() }
        // The browser waits 2 s before it reconnects after the stream breaks.
        guard connection.write(Array("retry: 2000\n: revue changes\n\n".utf8), deadline: HTTPConnection.now() + writeTimeout) else {
            connection.close()
            return
        }
        let start = lock.withLock { () -> Bool? in
            guard Self.admits(streams, address: connection.remoteAddress, capacity: capacity) else { return nil }
            streams.append(Stream(connection: connection, until: until))
            guard !looking else { return false }
            looking = true
            return true
        }
        guard let start else { return refuse() }
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
            let (open, read) = lock.withLock { () -> ([Stream], (@Sendable () throws -> Fingerprint)?) in
                if streams.isEmpty {
                    looking = false
                    last = nil
                }
                return (streams, fingerprint)
            }
            if open.isEmpty { return }
            // Those whose watcher hung up, or whose token expired, go first.
            let now = Date()
            let ended = open.filter { stream in stream.until.map { $0 <= now } == true || Self.hungUp(stream.connection) }
            drop(ended.map { ObjectIdentifier($0.connection) })
            var message: [UInt8]?
            do {
                if let read {
                    let current = try read()
                    let topics = lock.withLock { () -> [String] in
                        defer { last = current }
                        guard let last else { return [] }
                        return current.changed(since: last)
                    }
                    if !topics.isEmpty {
                        let id = lock.withLock { () -> Int in
                            defer { nextID += 1 }
                            return nextID
                        }
                        let list = topics.map { "\"\($0)\"" }.joined(separator: ",")
                        message = Array("id: \(id)\nevent: change\ndata: {\"changed\":[\(list)]}\n\n".utf8)
                    }
                }
            } catch {
                logger.warning("the change feed could not look", ["error": .string("\(error)")])
            }
            let clock = HTTPConnection.now()
            if message == nil && clock - lastWrite >= keepAliveInterval { message = Array(": keep-alive\n\n".utf8) }
            guard let message else { continue }
            lastWrite = clock
            let writing = lock.withLock { streams }
            let failed = writing.filter { !$0.connection.write(message, deadline: HTTPConnection.now() + writeTimeout) }
            drop(failed.map { ObjectIdentifier($0.connection) })
        }
    }

    /// Whether the watcher closed its side (a watcher sends nothing after its request).
    private static func hungUp(_ connection: HTTPConnection) -> Bool {
        var descriptor = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        if descriptor.revents & (Int16(POLLHUP) | Int16(POLLERR)) != 0 { return true }
        // Readable: its end of file (a closed side reads as nothing), or bytes it should not send.
        var byte: UInt8 = 0
        return recv(connection.descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0
    }

    private func drop(_ gone: [ObjectIdentifier]) {
        guard !gone.isEmpty else { return }
        let closing = lock.withLock { () -> [HTTPConnection] in
            let closing = streams.filter { gone.contains(ObjectIdentifier($0.connection)) }.map(\.connection)
            streams.removeAll { gone.contains(ObjectIdentifier($0.connection)) }
            return closing
        }
        for connection in closing { connection.close() }
    }
}
