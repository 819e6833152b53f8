import Foundation
import HTTP
import JobSpec
import Rooms

/// What the SDK's pre-call test measures the network against (seed 001, `runPreCallTest`): the
/// room server answers a ping, takes an upload and sends a download, each only for a valid
/// token, so a test measures the path to the server the call will use, not a third party.
///
/// - `GET /v2/precall/ping`: 204 at once (the round trip);
/// - `POST /v2/precall/upload`: reads the body (at most the server's body limit) and answers
///   `{"bytes": n}`;
/// - `GET /v2/precall/download?bytes=N`: N bytes (1 to 4 MiB) that do not compress.
struct PreCallProbe: Sendable {
    /// The largest download one request may ask for: a client measuring longer asks again.
    static let maximumDownload = 4 * 1024 * 1024
    let verifier: JoinTokenVerifier
    /// Bytes that do not compress (a fixed pseudo-random block, repeated), made once.
    private static let block: [UInt8] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<65_536).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }()

    /// The response to a pre-call request, or nil for a path that is not one.
    func respond(_ request: HTTPRequest, to action: String) -> HTTPResponse? {
        switch (request.method, action) {
        case ("GET", "ping"), ("POST", "upload"), ("GET", "download"): break
        default: return nil
        }
        guard let token = request.header("authorization"), case .success = verifier.verify(token, now: Date().timeIntervalSince1970) else {
            return HTTPAuthorization.error(401, code: 4002, name: "INVALID_TOKEN", "the pre-call test needs a valid token")
        }
        switch action {
        case "ping":
            return HTTPResponse(status: 204, contentType: "text/plain", body: [])
        case "upload":
            return HTTPResponse(status: 200, contentType: "application/json", body: Array("{\"bytes\":\(request.body.count)}".utf8))
        default:
            guard let text = request.query["bytes"], let count = Int(text), (1...Self.maximumDownload).contains(count) else {
                return HTTPAuthorization.error(400, code: 4000, name: "INVALID_PARAMETER", "bytes must be a whole number from 1 to \(Self.maximumDownload)")
            }
            var body: [UInt8] = []
            body.reserveCapacity(count)
            while body.count < count { body += Self.block.prefix(count - body.count) }
            return HTTPResponse(status: 200, contentType: "application/octet-stream", body: body)
        }
    }
}
