import Foundation
import HTTP
import JobSpec
import Synchronization

/// The strokes of the rooms' shared whiteboards, in memory, behind the routes:
/// - `GET /whiteboard/{roomId}/{boardId}?token=TOKEN`: the page (`Resources/whiteboard.html`);
/// - `GET /v2/whiteboards/{roomId}/{boardId}/strokes?since=N`: the strokes from the N-th on,
///   `{"strokes": [...], "next": M, "more": bool}` (at most 512 KiB: `more` says to ask again from M);
/// - `POST /v2/whiteboards/{roomId}/{boardId}/strokes`: one stroke, `{"colour": "#rrggbb",
///   "width": 1…50, "points": [[x, y], …]}` with 1 to 1,000 points in 0…1 (fractions of the board),
///   201 `{"index": n}`.
///
/// A board is served only while the room says it is on (`RoomRegistry.whiteboard(roomID:)`,
/// asked by the caller); a stopped board's strokes go at the next request. Like the room's
/// live state they are the room server's memory: a restart starts boards afresh. Every request
/// needs a valid token (in `Authorization`; the page's in `?token=`), for the room if the token
/// names one.
///
/// Memory is bounded (docs/SECURITY.md): each stroke is kept as the JSON it is served as, made
/// once; a board holds at most 10,000 strokes and 8 MiB of them, all boards together 128 MiB;
/// a GET sends at most 512 KiB of strokes and says where to go on from (`next`, `more`).
final class Whiteboards: Sendable {
    /// The most strokes one board keeps: a board that fills up refuses more (a whiteboard, not
    /// a store).
    static let maximumStrokes = 10_000
    static let maximumPoints = 1_000
    static let maximumBoardBytes = 8 << 20
    static let maximumTotalBytes = 128 << 20
    static let maximumResponseBytes = 512 << 10

    /// One stroke as stored, re-encoded from what was validated.
    struct Stroke: Sendable, Equatable {
        var colour: String
        var width: Double
        var points: [[Double]]

        var json: JSONValue {
            .object(["colour": .string(colour), "width": .number(width), "points": .array(points.map { .array($0.map(JSONValue.number)) })])
        }

        /// The stroke as served: `{"colour","points","width"}`, coordinates to 1/10,000 of the board.
        var encoded: [UInt8] {
            func number(_ value: Double) -> String {
                let rounded = (value * 10_000).rounded() / 10_000
                return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
            }
            let list = points.map { "[\(number($0[0])),\(number($0[1]))]" }.joined(separator: ",")
            return Array("{\"colour\":\"\(colour)\",\"points\":[\(list)],\"width\":\(number(width))}".utf8)
        }

        /// Why a body is not a stroke.
        struct Invalid: Error, Sendable, Equatable {
            var reason: String
        }

        /// A stroke from a request's body, or why not.
        static func parse(_ body: [UInt8]) -> Result<Stroke, Invalid> {
            guard let value = try? JSONValue(parsing: body) else { return .failure(Invalid(reason: "the body is not JSON")) }
            guard case .string(let colour)? = value["colour"], colour.count == 7, colour.hasPrefix("#"),
                  colour.dropFirst().allSatisfy(\.isHexDigit)
            else { return .failure(Invalid(reason: "colour must be #rrggbb")) }
            guard case .number(let width)? = value["width"], width.isFinite, (1...50).contains(width) else {
                return .failure(Invalid(reason: "width must be a number from 1 to 50"))
            }
            guard case .array(let list)? = value["points"], (1...maximumPoints).contains(list.count) else {
                return .failure(Invalid(reason: "points must hold 1 to \(maximumPoints) points"))
            }
            var points: [[Double]] = []
            for item in list {
                guard case .array(let pair) = item, pair.count == 2, case .number(let x) = pair[0], case .number(let y) = pair[1],
                      (0...1).contains(x), (0...1).contains(y)
                else { return .failure(Invalid(reason: "each point must be [x, y] with x and y from 0 to 1")) }
                points.append([x, y])
            }
            return .success(Stroke(colour: colour.lowercased(), width: width, points: points))
        }
    }

    private struct State {
        /// Strokes by board id, each as its JSON.
        var boards: [String: [[UInt8]]] = [:]
        var boardBytes: [String: Int] = [:]
        var totalBytes = 0
    }

    private let state = Mutex(State())

    static let page: [UInt8] = EmbeddedResources.file("whiteboard.html") ?? Array("<!doctype html><p>The whiteboard page is missing from this build.".utf8)

    /// The page of a board that is on.
    func page() -> HTTPResponse {
        var response = HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Self.page)
        response.headers.append(("Cache-Control", "no-store"))
        response.headers.append(("Content-Security-Policy", "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'"))
        return response
    }

    /// The strokes of `board` from `since` on, at most `maximumResponseBytes` of them:
    /// `{"strokes": [...], "next": N, "more": bool}`.
    func strokes(board: String, since: Int) -> HTTPResponse {
        let (slice, next, more) = state.withLock { state -> ([[UInt8]], Int, Bool) in
            let all = state.boards[board] ?? []
            var slice: [[UInt8]] = []
            var bytes = 0
            var index = max(0, min(since, all.count))
            while index < all.count, slice.isEmpty || bytes + all[index].count <= Self.maximumResponseBytes {
                slice.append(all[index])
                bytes += all[index].count
                index += 1
            }
            return (slice, index, index < all.count)
        }
        var body = Array("{\"strokes\":[".utf8)
        for (position, stroke) in slice.enumerated() {
            if position > 0 { body.append(UInt8(ascii: ",")) }
            body += stroke
        }
        body += Array("],\"next\":\(next),\"more\":\(more)}".utf8)
        return HTTPResponse(status: 200, contentType: "application/json", body: body)
    }

    /// Adds a stroke from a request's body.
    func add(board: String, body: [UInt8]) -> HTTPResponse {
        switch Stroke.parse(body) {
        case .failure(let invalid):
            return HTTPAuthorization.error(400, code: 3073, name: "ERROR_INVALID_PARAMETER", invalid.reason)
        case .success(let stroke):
            let encoded = stroke.encoded
            let outcome: Result<Int, Full> = state.withLock { state in
                let strokes = state.boards[board] ?? []
                let used = state.boardBytes[board] ?? 0
                guard strokes.count < Self.maximumStrokes, used + encoded.count <= Self.maximumBoardBytes else { return .failure(.board) }
                guard state.totalBytes + encoded.count <= Self.maximumTotalBytes else { return .failure(.server) }
                state.boards[board, default: []].append(encoded)
                state.boardBytes[board] = used + encoded.count
                state.totalBytes += encoded.count
                return .success(strokes.count)
            }
            switch outcome {
            case .success(let index):
                return HTTPResponse(status: 201, contentType: "application/json", body: Array("{\"index\":\(index)}".utf8))
            case .failure(.board):
                return HTTPAuthorization.error(409, code: 3073, name: "ERROR_INVALID_PARAMETER",
                                               "the whiteboard is full (\(Self.maximumStrokes) strokes or \(Self.maximumBoardBytes >> 20) MiB)")
            case .failure(.server):
                return HTTPAuthorization.error(503, code: 3073, name: "ERROR_INVALID_PARAMETER", "the server's whiteboards are full; try again later")
            }
        }
    }

    private enum Full: Error {
        case board
        case server
    }

    /// Forgets every board but `live` (the ids the rooms have on now).
    func keep(only live: Set<String>) {
        state.withLock { state in
            for board in state.boards.keys where !live.contains(board) {
                state.boards[board] = nil
                state.totalBytes -= state.boardBytes.removeValue(forKey: board) ?? 0
            }
        }
    }
}
