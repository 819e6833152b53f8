import Crypto
import Foundation
import JobSpec
import Signaling

/// Checks a `join`'s token the way the platform does at join (`../shared/spec/PLATFORM_API.md`):
/// HS256 with the API secret and a readable payload (4002), this server's `apikey` (4001),
/// `exp` not passed (4002), and well-formed `roles` (4024) and `permissions` (4008). What the
/// claims allow in a room (4008, 4022, 4023, 4024) the registry decides.
public struct JoinTokenVerifier: Sendable {
    public let apiKey: String
    public let secret: String

    public init(apiKey: String, secret: String) {
        self.apiKey = apiKey
        self.secret = secret
    }

    /// The token's claims, or the error to refuse the join with. `now` is seconds since 1970.
    public func verify(_ token: String, now: Double) -> Result<TokenClaims, SignalingError> {
        var text = token.trimmingCharacters(in: .whitespaces)
        if text.lowercased().hasPrefix("bearer ") { text = String(text.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
        let payload: [UInt8]
        do {
            payload = try JSONWebToken.verify(text, secret: secret)
        } catch {
            return .failure(SignalingError(.invalidToken, "the token is not valid: \(error)"))
        }
        let claims: TokenClaims
        do {
            claims = try TokenClaims(validating: payload)
        } catch {
            switch error {
            case .apiKey(let why): return .failure(SignalingError(.invalidAPIKey, why))
            case .token(let why): return .failure(SignalingError(.invalidToken, why))
            case .permissions(let why): return .failure(SignalingError(.invalidPermissions, why))
            case .role(let why): return .failure(SignalingError(.unauthorizedRole, why))
            }
        }
        guard claims.apikey == apiKey else { return .failure(SignalingError(.invalidAPIKey, "the token's apikey is not this server's")) }
        if let expiry = claims.exp, expiry <= now { return .failure(SignalingError(.invalidToken, "the token expired")) }
        return .success(claims)
    }
}
