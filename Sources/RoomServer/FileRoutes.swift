import Foundation
import HTTP
import JobSpec
import Rooms

/// The HTTP side of the SDK's temporary file storage (`RoomFiles`):
/// - `POST /v2/files/{roomId}?name=NAME`: the body is the file (at most 1 MiB); 201 with
///   `{"url", "name", "size", "expiresAt"}`;
/// - `GET /v2/files/{id}/{name}`: the file's bytes, until it expires.
///
/// Both need a valid token in `Authorization`; a token for one room (its `roomId` claim) reaches
/// only that room's files. Errors are JSON `{code, name, message}`, as the REST API's.
struct FileRoutes: Sendable {
    let files: RoomFiles
    let verifier: JoinTokenVerifier
    /// The base of the URLs handed out (`RoomServer.Configuration.publicURL`).
    let publicURL: String
    /// Whether a room has a live session here: files are uploaded only into a room in session.
    let isLive: @Sendable (String) -> Bool

    func upload(_ request: HTTPRequest, roomID: String) -> HTTPResponse {
        let claims: TokenClaims
        switch authorize(request, roomID: roomID) {
        case .allowed(let made): claims = made
        case .refused(let response): return response
        }
        guard let name = request.query["name"], RoomFiles.isValidName(name) else {
            return HTTPAuthorization.error(400, code: 3073, name: "ERROR_INVALID_PARAMETER",
                              "name must be 1 to 255 bytes with no '/', '\\\\' or control character")
        }
        guard !request.body.isEmpty else { return HTTPAuthorization.error(400, code: 3073, name: "ERROR_INVALID_PARAMETER", "the file is empty") }
        guard request.body.count <= RoomFiles.maximumBytes else {
            return HTTPAuthorization.error(413, code: 3074, name: "ERROR_FILE_UPLOAD_FAILED", "the file is over \(RoomFiles.maximumBytes) bytes")
        }
        guard isLive(roomID) else {
            return HTTPAuthorization.error(404, code: 3074, name: "ERROR_FILE_UPLOAD_FAILED", "room \(roomID) is not in session here")
        }
        do {
            let now = Date()
            let id = try files.store(roomID: roomID, name: name, content: request.body, uploadedBy: claims.participantId, now: now)
            let url = "\(publicURL)/v2/files/\(id.uuidString.lowercased())/\(Self.pathSegment(name))"
            let body = JSONValue.object(["url": .string(url), "name": .string(name), "size": .number(Double(request.body.count)),
                                         "expiresAt": .string(ISO8601DateFormatter().string(from: now.addingTimeInterval(RoomFiles.lifetime)))])
            return HTTPResponse(status: 201, contentType: "application/json", body: Array(body.text.utf8))
        } catch let quota as RoomFiles.QuotaExceeded {
            return HTTPAuthorization.error(quota == .room ? 413 : 507, code: 3074, name: "ERROR_FILE_UPLOAD_FAILED", quota.description)
        } catch {
            return HTTPAuthorization.error(503, code: 3074, name: "ERROR_FILE_UPLOAD_FAILED", "the file could not be stored: \(error)")
        }
    }

    func fetch(_ request: HTTPRequest, id text: String, name: String) -> HTTPResponse {
        guard let id = UUID(uuidString: text) else { return HTTPAuthorization.error(404, code: 3075, name: "ERROR_FILE_FETCH_FAILED", "no such file") }
        let file: RoomFiles.File?
        do {
            file = try files.file(id)
        } catch {
            return HTTPAuthorization.error(503, code: 3075, name: "ERROR_FILE_FETCH_FAILED", "the file could not be read: \(error)")
        }
        // The same answer for a file that never was, expired, or is under another name.
        guard let file, file.name == name else {
            return HTTPAuthorization.error(404, code: 3075, name: "ERROR_FILE_FETCH_FAILED", "no such file (files are kept for a day)")
        }
        if case .refused(let response) = authorize(request, roomID: file.roomID) { return response }
        return HTTPResponse(status: 200, contentType: "application/octet-stream", body: file.content)
    }

    private func authorize(_ request: HTTPRequest, roomID: String) -> HTTPAuthorization {
        HTTPAuthorization(token: request.header("authorization"), roomID: roomID, verifier: verifier)
    }

    /// A file name as one URL path segment (RFC 3986 §3.3).
    static func pathSegment(_ name: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        return name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
    }
}
