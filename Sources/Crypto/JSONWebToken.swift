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

    private struct Header: Codable {
        var alg: String
        var typ: String?
    }

    /// Signs a payload (the JSON text of the claims) with HS256.
    public static func sign(payload: [UInt8], secret: String) -> String {
        let header = Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8)
        let input = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        let signature = HMACSHA256.authenticationCode(key: Array(secret.utf8), message: Array(input.utf8))
        return input + "." + Base64URL.encode(signature)
    }

    /// Signs any Encodable claims (sorted keys).
    public static func sign(claims: some Encodable, secret: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return sign(payload: Array(try encoder.encode(claims)), secret: secret)
    }

    /// The longest token read at all: ample for Revue's claims, and it bounds the work of one
    /// forged token.
    public static let maximumLength = 8192

    /// Verifies the signature and returns the payload: the JSON text of the claims, for the
    /// caller to read into its own model (only a verified payload is ever read).
    public static func verify(_ token: String, secret: String) throws(Failure) -> [UInt8] {
        // The header is read before the signature is checked: bound what an unsigned text costs.
        guard token.utf8.count <= maximumLength else { throw .malformed("a token is at most \(maximumLength) bytes") }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("expected three dot-separated parts") }
        guard parts[0].utf8.count <= 512 else { throw .malformed("the header is over 512 bytes") }
        guard let headerBytes = Base64URL.decode(parts[0]), let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes))
        else { throw .malformed("the header is not base64url JSON with an alg") }
        guard header.alg == "HS256" else { throw .unsupportedAlgorithm(header.alg) }
        guard let signature = Base64URL.decode(parts[2]) else { throw .malformed("the signature is not base64url") }
        let expected = HMACSHA256.authenticationCode(key: Array(secret.utf8), message: Array((parts[0] + "." + parts[1]).utf8))
        guard HMACSHA256.constantTimeEqual(signature, expected) else { throw .badSignature }
        guard let payload = Base64URL.decode(parts[1]) else { throw .malformed("the payload is not base64url") }
        return payload
    }
}
