import APIModels
import Crypto
import Foundation
import HTTP
import JobSpec
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
        /// When the token expires (`exp`), if it does.
        public var expiresAt: Date? = nil
    }

    public func authenticate(_ request: HTTPRequest, now: Date = Date()) throws(ServiceError) -> Grant {
        guard var token = request.header("authorization")?.trimmingCharacters(in: .whitespaces), !token.isEmpty else {
            throw .unauthorizedRequest("the Authorization header with a token is missing")
        }
        if token.lowercased().hasPrefix("bearer ") { token = String(token.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
        let claims: TokenClaims
        do {
            claims = try TokenClaims(validating: try JSONWebToken.verify(token, secret: secret))
        } catch let problem as TokenClaims.Problem {
            switch problem {
            case .apiKey(let why): throw .invalidAPIKey(why)
            case .token(let why), .permissions(let why): throw .invalidToken(why)
            case .role(let why): throw .unauthorizedRole(why)
            }
        } catch {
            throw .invalidToken("\(error)")
        }
        guard claims.apikey == apiKey else { throw .invalidAPIKey("the token's apikey is not this server's") }
        if let seconds = claims.exp {
            guard Date(timeIntervalSince1970: seconds) > now else { throw .invalidToken("the token expired") }
        }
        if let roles = claims.roles {
            guard roles.isEmpty || roles.contains(.crawler) else {
                throw .unauthorizedRole("the REST API needs the crawler role; rtc tokens only join rooms")
            }
        }
        return Grant(roomID: claims.roomId, expiresAt: claims.exp.map(Date.init(timeIntervalSince1970:)))
    }

    /// Refuses a token limited to another room.
    public static func check(_ grant: Grant, roomID: String?) throws(ServiceError) {
        guard let limited = grant.roomID, let roomID, limited != roomID else { return }
        throw .unauthorizedRoom("the token is limited to room \(limited), not \(roomID)")
    }

    /// A token for development (`revue token`).
    public func token(roles: [TokenClaims.Role] = [.crawler], permissions: [TokenClaims.Permission] = [.allowJoin], roomID: String? = nil,
                      participantID: String? = nil, expiresIn: Double = 3600, recorder: Bool = false, now: Date = Date()) throws -> String
    {
        let issued = now.timeIntervalSince1970.rounded(.down)
        let claims = TokenClaims(apikey: apiKey, permissions: permissions, version: 2, roomId: roomID, participantId: participantID,
                                 roles: roles, iat: issued, exp: issued + expiresIn.rounded())
        var signed = claims
        if recorder { signed.recorder = true }
        return try JSONWebToken.sign(claims: signed, secret: secret)
    }
}
