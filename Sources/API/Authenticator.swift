import Crypto
import Foundation
import HTTP
import Jobs

/// Checks the JWT in `Authorization` (the raw token; a `Bearer ` prefix is accepted too):
/// HS256 with the API secret, `apikey`, `exp`, `roles` and `roomId`. Each failure has the
/// platform's code (docs/API.md).
public struct Authenticator: Sendable {
    public let apiKey: String
    public let secret: String

    public init(apiKey: String, secret: String) {
        self.apiKey = apiKey
        self.secret = secret
    }

    /// What a valid token allows.
    public struct Grant: Sendable {
        /// The one room the token is limited to, if any.
        public var roomID: String?
    }

    public func authenticate(_ request: HTTPRequest, now: Date = Date()) throws(ServiceError) -> Grant {
        guard var token = request.header("authorization")?.trimmingCharacters(in: .whitespaces), !token.isEmpty else {
            throw .unauthorizedRequest("the Authorization header with a token is missing")
        }
        if token.lowercased().hasPrefix("bearer ") { token = String(token.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
        let claims: [String: Any]
        do {
            claims = try JSONWebToken.verify(token, secret: secret)
        } catch {
            throw .invalidToken("\(error)")
        }
        guard let key = claims["apikey"] as? String else { throw .invalidAPIKey("the token has no apikey") }
        guard key == apiKey else { throw .invalidAPIKey("the token's apikey is not this server's") }
        if let expiry = claims["exp"] {
            guard let seconds = (expiry as? NSNumber)?.doubleValue else { throw .invalidToken("exp is not a number") }
            guard Date(timeIntervalSince1970: seconds) > now else { throw .invalidToken("the token expired") }
        }
        if let roles = claims["roles"] {
            guard let list = roles as? [String] else { throw .unauthorizedRole("roles is not a list") }
            for role in list where !["crawler", "rtc"].contains(role) {
                throw .unauthorizedRole("unknown role \"\(role)\"")
            }
            guard list.isEmpty || list.contains("crawler") else {
                throw .unauthorizedRole("the REST API needs the crawler role; rtc tokens only join rooms")
            }
        }
        var grant = Grant()
        if let room = claims["roomId"] {
            guard let id = room as? String else { throw .invalidToken("roomId is not a string") }
            grant.roomID = id
        }
        return grant
    }

    /// Refuses a token limited to another room.
    public static func check(_ grant: Grant, roomID: String?) throws(ServiceError) {
        guard let limited = grant.roomID, let roomID, limited != roomID else { return }
        throw .unauthorizedRoom("the token is limited to room \(limited), not \(roomID)")
    }

    /// A token for development (`revue token`).
    public func token(roles: [String] = ["crawler"], roomID: String? = nil, expiresIn: Double = 3600, now: Date = Date()) throws -> String {
        var claims: [String: Any] = [
            "apikey": apiKey, "permissions": ["allow_join"], "version": 2, "roles": roles,
            "iat": Int(now.timeIntervalSince1970), "exp": Int(now.timeIntervalSince1970 + expiresIn),
        ]
        if let roomID { claims["roomId"] = roomID }
        return try JSONWebToken.sign(claims: claims, secret: secret)
    }
}
