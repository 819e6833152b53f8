import Foundation
import HTTP
import JobSpec

/// The strokes of the rooms' shared whiteboards, in memory, behind the routes:
/// - `GET /whiteboard/{roomId}/{boardId}?token=TOKEN`: the page (`Resources/whiteboard.html`);
/// - `GET /v2/whiteboards/{roomId}/{boardId}/strokes?since=N`: the strokes from the N-th on,
///   `{"strokes": [...], "next": M}`;
/// - `POST /v2/whiteboards/{roomId}/{boardId}/strokes`: one stroke, `{"colour": "#rrggbb",
///   "width": 1…50, "points": [[x, y], …]}` with 1 to 1,000 points in 0…1 (fractions of the board),
///   201 `{"index": n}`.
///
/// A board is served only while the room says it is on (`RoomRegistry.whiteboard(roomID:)`,
/// asked by the caller); a stopped board's strokes go at the next request. Like the room's
/// live state they are the room server's memory: a restart starts boards afresh. Every request
/// needs a valid token (in `Authorization`; the page's in `?token=`), for the room if the token
/// names one.
final class Whiteboards: @unchecked Sendable {
    /// The most strokes one board keeps: a board that fills up refuses more (a whiteboard, not
    /// a store).
    static let maximumStrokes = 10_000
    static let maximumPoints = 1_000

    /// One stroke as stored, re-encoded from what was validated.
    struct Stroke: Sendable, Equatable {
        var colour: String
        var width: Double
        var points: [[Double]]

        var json: JSONValue {
            .object(["colour": .string(colour), "width": .number(width), "points": .array(points.map { .array($0.map(JSONValue.number)) })])
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

    private let lock = NSLock()
    /// Strokes by board id.
    private var boards: [String: [Stroke]] = [:]

    static let page: [UInt8] = EmbeddedResources.file("whiteboard.html") ?? Array("<!doctype html><p>The whiteboard page is missing from this build.".utf8)

    /// The page of a board that is on.
    func page() -> HTTPResponse {
        var response = HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Self.page)
        response.headers.append(("Cache-Control", "no-store"))
        response.headers.append(("Content-Security-Policy", "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'"))
        return response
    }

    /// The strokes of `board` from `since` on.
    func strokes(board: String, since: Int) -> HTTPResponse {
        let (slice, next) = lock.withLock { () -> ([Stroke], Int) in
            let all = boards[board] ?? []
            return (Array(all.dropFirst(max(0, since))), all.count)
        }
        let body = JSONValue.object(["strokes": .array(slice.map(\.json)), "next": .number(Double(next))])
        return HTTPResponse(status: 200, contentType: "application/json", body: Array(body.text.utf8))
    }

    /// Adds a stroke from a request's body.
    func add(board: String, body: [UInt8]) -> HTTPResponse {
        switch Stroke.parse(body) {
        case .failure(let invalid):
            return HTTPAuthorization.error(400, code: 3073, name: "ERROR_INVALID_PARAMETER", invalid.reason)
        case .success(let stroke):
            let index: Int? = lock.withLock {
                var strokes = boards[board] ?? []
                guard strokes.count < Self.maximumStrokes else { return nil }
                strokes.append(stroke)
                boards[board] = strokes
                return strokes.count - 1
            }
            guard let index else { return HTTPAuthorization.error(409, code: 3073, name: "ERROR_INVALID_PARAMETER", "the whiteboard is full") }
            return HTTPResponse(status: 201, contentType: "application/json", body: Array("{\"index\":\(index)}".utf8))
        }
    }

    /// Forgets every board but `live` (the ids the rooms have on now).
    func keep(only live: Set<String>) {
        lock.withLock { boards = boards.filter { live.contains($0.key) } }
    }
}
