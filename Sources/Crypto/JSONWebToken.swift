import Foundation

/// JSON Web Tokens signed with HS256 (RFC 7519, RFC 7515, RFC 7518 §3.2): the REST API's
/// credentials. Verification checks the header's algorithm and the HMAC in constant time; the
/// caller checks the claims.
public enum JSONWebToken {
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Not three base64url parts of JSON.
        case malformed(String)
        /// Not HS256.
        case unsupportedAlgorithm(String)
        /// The signature does not match: a wrong secret, or a changed token.
        case badSignature

        public var description: String {
            switch self {
            case .malformed(let why): "malformed token: \(why)"
            case .unsupportedAlgorithm(let algorithm): "unsupported token algorithm \(algorithm) (HS256 only)"
            case .badSignature: "the token's signature does not match"
            }
        }
    }

    /// Signs `claims` (a JSON object) with HS256.
    public static func sign(claims: [String: Any], secret: String) throws -> String {
        let header = try JSONSerialization.data(withJSONObject: ["alg": "HS256", "typ": "JWT"], options: [.sortedKeys])
        let payload = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
        let input = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        let signature = HMACSHA256.authenticationCode(key: Array(secret.utf8), message: Array(input.utf8))
        return input + "." + Base64URL.encode(signature)
    }

    /// Verifies the signature and returns the claims.
    public static func verify(_ token: String, secret: String) throws(Failure) -> [String: Any] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("expected three dot-separated parts") }
        guard let headerBytes = Base64URL.decode(parts[0]),
              let header = (try? JSONSerialization.jsonObject(with: Data(headerBytes))) as? [String: Any]
        else { throw .malformed("the header is not base64url JSON") }
        guard let algorithm = header["alg"] as? String else { throw .malformed("the header has no alg") }
        guard algorithm == "HS256" else { throw .unsupportedAlgorithm(algorithm) }
        guard let signature = Base64URL.decode(parts[2]) else { throw .malformed("the signature is not base64url") }
        let expected = HMACSHA256.authenticationCode(key: Array(secret.utf8), message: Array((parts[0] + "." + parts[1]).utf8))
        guard HMACSHA256.constantTimeEqual(signature, expected) else { throw .badSignature }
        guard let payloadBytes = Base64URL.decode(parts[1]),
              let claims = (try? JSONSerialization.jsonObject(with: Data(payloadBytes))) as? [String: Any]
        else { throw .malformed("the payload is not a base64url JSON object") }
        return claims
    }
}
