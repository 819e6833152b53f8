import Foundation
import HLS
import HTTP
import Log

/// The origin's half of low-latency HLS (draft-pantos-hls-rfc8216bis §6.2.5.2, §6.2.6): a
/// playlist request that asks for a segment or part not written yet, and a request for the
/// hinted part before it is whole, are held, not answered, until the file on disk has what they
/// ask for; a playlist request that asks too far ahead is refused at once.
///
/// A held request costs no thread: the HTTP server parks its connection (`HTTPResult.deferred`)
/// and this keeps its responder. One thread looks at the files the held requests wait for,
/// every `pollInterval` while any are held (each file read once a look, however many wait for
/// it), and answers those it can; each is answered within `pollInterval` of its part being
/// renamed into place. The writer is another process (a job's), so the files are the only
/// thing both see.
// @unchecked Sendable: `held`, `nextID` and `looking` guarded by `condition` (an NSCondition: the looking thread sleeps on it while nothing is held)
final class HLSHeldRequests: @unchecked Sendable {
    private struct Held {
        enum Wanted {
            case playlist(HLSDeliveryDirectives)
            /// The hinted part, answered by the closure once its file exists; 404 at once if the
            /// stream's live playlist ends first (its parts are removed then).
            case part(@Sendable () -> HTTPResponse, playlist: String)
        }

        let id: UInt64
        let path: String
        let wanted: Wanted
        /// Monotonic seconds: answered 503 (a playlist) or 404 (a part) by then.
        let deadline: Double
        let responder: HTTPResponder
    }

    private let condition = NSCondition()
    private var held: [Held] = []
    private var nextID: UInt64 = 1
    private var looking = false
    private let logger = Logger(label: "hls")
    /// Requests held at once, across every stream; more are answered 503.
    let capacity: Int
    let pollInterval: Double
    private let now: @Sendable () -> Double

    init(capacity: Int = 20_000, pollInterval: Double = 0.01, now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) {
        self.capacity = capacity
        self.pollInterval = pollInterval
        self.now = now
    }

    /// Requests held now.
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return held.count
    }

    /// The answer to a playlist request with delivery directives: the playlist now (whole, or
    /// a delta update when asked and offered), a refusal, or later.
    /// Nil for a playlist that offers no blocking reloads or has ended: the file as it is, as
    /// any request gets it (§6.2.5.2 says to ignore the directives then).
    func playlist(at path: String, directives: HLSDeliveryDirectives) -> HTTPResult? {
        guard let playlist = HLSHeldRequests.read(path) else { return .response(JSON.error(.notFound("no such file"))) }
        guard playlist.canBlockReload, !playlist.ended else { return nil }
        switch directives.decide(playlist) {
        case .answer:
            return .response(HLSHeldRequests.answer(playlist, directives))
        case .refuse(let reason):
            return .response(HLSHeldRequests.refusal(reason))
        case .wait:
            // §6.2.5.2: a request that cannot be answered within three target durations gets 503.
            let deadline = now() + HLSHeldRequests.holdLimit(playlist)
            return .deferred { [self] responder in hold(path: path, wanted: .playlist(directives), deadline: deadline, responder: responder) }
        }
    }

    /// The answer to a request for a part not on disk yet: held when it is the part the stream's
    /// live playlist hints (`EXT-X-PRELOAD-HINT`, which §6.2.6 says is available to request as
    /// soon as it is hinted), nil otherwise (an ordinary 404).
    func part(at path: String, answer: @escaping @Sendable () -> HTTPResponse) -> HTTPResult? {
        let url = URL(fileURLWithPath: path)
        let live = url.deletingLastPathComponent().appendingPathComponent("live.m3u8").path
        guard let playlist = HLSHeldRequests.read(live), !playlist.ended, playlist.hintedPart == url.lastPathComponent else { return nil }
        let deadline = now() + HLSHeldRequests.holdLimit(playlist)
        return .deferred { [self] responder in hold(path: path, wanted: .part(answer, playlist: live), deadline: deadline, responder: responder) }
    }

    private func hold(path: String, wanted: Held.Wanted, deadline: Double, responder: HTTPResponder) {
        condition.lock()
        guard held.count < capacity else {
            condition.unlock()
            responder.respond(.text(503, "too many requests are waiting for live HLS; try again"))
            return
        }
        held.append(Held(id: nextID, path: path, wanted: wanted, deadline: deadline, responder: responder))
        nextID += 1
        if !looking {
            looking = true
            let thread = Thread { [self] in look() }
            thread.name = "hls held requests"
            thread.start()
        }
        condition.signal()
        condition.unlock()
    }

    /// Three target durations (§6.2.5.2), at most 30 s whatever the file says.
    static func holdLimit(_ playlist: HLSMediaPlaylist) -> Double {
        min(30, 3 * Double(playlist.targetDuration ?? 2))
    }

    /// The looking thread: looks every `pollInterval` while anything is held, and ends when
    /// nothing is (the next held request starts another).
    private func look() {
        while true {
            condition.lock()
            guard !held.isEmpty else {
                looking = false
                condition.unlock()
                return
            }
            let waiting = held
            condition.unlock()

            let answers = answer(waiting, at: now())
            if !answers.isEmpty {
                let done = Set(answers.map(\.id))
                condition.lock()
                held.removeAll { done.contains($0.id) }
                condition.unlock()
                for (_, responder, response) in answers { responder.respond(response) }
            }
            Thread.sleep(forTimeInterval: pollInterval)
        }
    }

    /// What can be answered now: each playlist read once for all who wait on it.
    private func answer(_ waiting: [Held], at time: Double) -> [(id: UInt64, responder: HTTPResponder, response: HTTPResponse)] {
        var playlists: [String: HLSMediaPlaylist?] = [:]
        var exists: [String: Bool] = [:]
        var answers: [(id: UInt64, responder: HTTPResponder, response: HTTPResponse)] = []
        for request in waiting {
            var response: HTTPResponse?
            switch request.wanted {
            case .playlist(let directives):
                if playlists[request.path] == nil { playlists[request.path] = .some(HLSHeldRequests.read(request.path)) }
                guard let playlist = playlists[request.path] ?? nil else {
                    response = JSON.error(.notFound("no such file"))
                    break
                }
                switch directives.decide(playlist) {
                case .answer: response = HLSHeldRequests.answer(playlist, directives)
                case .refuse(let reason): response = HLSHeldRequests.refusal(reason)
                case .wait:
                    if time >= request.deadline {
                        logger.debug("a blocking playlist reload timed out", ["path": .string(request.path)])
                        response = .text(503, "the playlist did not reach _HLS_msn=\(directives.sequence ?? 0) in three target durations")
                    }
                }
            case .part(let serve, let live):
                if exists[request.path] == nil { exists[request.path] = FileManager.default.fileExists(atPath: request.path) }
                if playlists[live] == nil { playlists[live] = .some(HLSHeldRequests.read(live)) }
                if exists[request.path] == true {
                    response = serve()
                } else if time >= request.deadline || (playlists[live] ?? nil)?.ended != false {
                    response = JSON.error(.notFound("the hinted part was not written"))
                }
            }
            if let response { answers.append((request.id, request.responder, response)) }
        }
        return answers
    }

    /// At most `HLSMediaPlaylist.maximumBytes` of the file.
    static func read(_ path: String) -> HLSMediaPlaylist? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        guard let data = try? file.read(upToCount: HLSMediaPlaylist.maximumBytes) else { return nil }
        return HLSMediaPlaylist(text: String(decoding: data, as: UTF8.self))
    }

    /// The playlist as a request with directives gets it. An answer to a blocking reload may be
    /// cached: whoever asks the same later gets at least what they asked for, so a CDN or proxy
    /// in front answers all its viewers of one part with one request to the origin.
    static func answer(_ playlist: HLSMediaPlaylist, _ directives: HLSDeliveryDirectives) -> HTTPResponse {
        let text = (directives.skip ? playlist.deltaUpdate() : nil) ?? playlist.lines.joined(separator: "\n")
        let caching = directives.sequence != nil && playlist.canBlockReload && !playlist.ended
            ? "public, max-age=\(Int(holdLimit(playlist)))" : "no-cache"
        return HTTPResponse(status: 200, headers: [("Content-Type", FileServer.contentType("live.m3u8")), ("Cache-Control", caching),
                                                   ("Access-Control-Allow-Origin", "*")], body: .bytes(Array(text.utf8)))
    }

    static func refusal(_ reason: String) -> HTTPResponse {
        var response = HTTPResponse.text(400, reason)
        response.headers.append(("Access-Control-Allow-Origin", "*"))
        return response
    }
}
