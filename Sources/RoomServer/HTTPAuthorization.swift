import Foundation
import HTTP
import JobSpec
import Rooms

/// Whether an HTTP request of the room server's own routes (files, whiteboards) may go on: a
/// valid token (`Authorization`, with or without `Bearer`), for `roomID` when the token names a
/// room. Refusals are JSON `{code, name, message}`, as the REST API's.
enum HTTPAuthorization {
    case allowed(TokenClaims)
    case refused(HTTPResponse)

    init(token: String?, roomID: String, verifier: JoinTokenVerifier, now: Date = Date()) {
        guard let token, !token.isEmpty else {
            self = .refused(Self.error(401, code: 4002, name: "INVALID_TOKEN", "this needs a token in Authorization"))
            return
        }
        switch verifier.verify(token, now: now.timeIntervalSince1970) {
        case .failure(let error):
            self = .refused(Self.error(401, code: 4002, name: "INVALID_TOKEN", error.message))
        case .success(let claims):
            if let only = claims.roomId, only != roomID {
                self = .refused(Self.error(403, code: 4008, name: "INVALID_PERMISSIONS", "the token is for room \(only)"))
            } else {
                self = .allowed(claims)
            }
        }
    }

    static func error(_ status: Int, code: Int, name: String, _ message: String) -> HTTPResponse {
        let json = JSONValue.object(["code": .number(Double(code)), "name": .string(name), "message": .string(message)])
        return HTTPResponse(status: status, contentType: "application/json", body: Array(json.text.utf8))
    }
}
