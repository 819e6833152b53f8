import Crypto
import Foundation

/// Signed `/files/` URLs: a file is served only to someone holding a URL that Revue handed out
/// (a REST answer or a webhook) and only until it expires. docs/STORAGE.md.
///
/// ```
/// /files/s/<expires>/<signature>/recordings/JOB/part-1.mp4
/// /files/s/<expires>/<signature>/hls/JOB/part-1/index.m3u8
///         expires: Unix seconds; signature: hex HMAC-SHA256(key, "revue-files-v1\n<scope>\n<expires>"), 128 bits
/// ```
/// The scope is the first three path components: the MP4 itself, or an HLS part's directory.
/// The signature sits in the path, not the query, so a playlist's relative segment URIs
/// (`seg_00001.m4s`) resolve under the same signed prefix and players fetch them unchanged.
public struct FileURLSigner: Sendable {
    private let key: [UInt8]
    /// How long a URL is valid, seconds.
    public let lifetime: Int

    /// Why a `/files/` path is refused.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case unsigned
        case malformed
        case wrongSignature
        case expired

        public var description: String {
            switch self {
            case .unsigned: "files are served only through the signed URLs in REST answers and webhooks"
            case .malformed: "the signed file URL is malformed"
            case .wrongSignature: "the file URL's signature is not valid"
            case .expired: "the file URL has expired; fetch the job again for a fresh one"
            }
        }
    }

    /// `key` is derived from the API secret, so every API server and worker of a deployment signs alike.
    public init(apiSecret: String, lifetime: Int = 86_400) {
        key = HMACSHA256.authenticationCode(key: Array(apiSecret.utf8), message: Array("revue file URL key".utf8))
        self.lifetime = lifetime
    }

    /// The signed path (`s/EXPIRES/SIGNATURE/<path>`, under `/files/`) of a storage path, valid
    /// `lifetime` seconds from `now`.
    public func signedPath(_ path: String, now: Date) -> String {
        let expires = Int(now.timeIntervalSince1970) + lifetime
        return "s/\(expires)/\(signature(scope: FileURLSigner.scope(of: path), expires: expires))/\(path)"
    }

    /// Checks the components after `/files/` and returns the storage path they grant.
    public func verify(_ components: [String], now: Date) throws(Refusal) -> String {
        guard components.first == "s" else { throw .unsigned }
        guard components.count >= 5, let expires = Int(components[1]), components[2].utf8.count == 32 else { throw .malformed }
        let path = components.dropFirst(3).joined(separator: "/")
        let expected = Array(signature(scope: FileURLSigner.scope(of: path), expires: expires).utf8)
        guard HMACSHA256.constantTimeEqual(expected, Array(components[2].lowercased().utf8)) else { throw .wrongSignature }
        guard Double(expires) > now.timeIntervalSince1970 else { throw .expired }
        return path
    }

    static func scope(of path: String) -> String {
        path.split(separator: "/").prefix(3).joined(separator: "/")
    }

    private func signature(scope: String, expires: Int) -> String {
        String(Hex.encode(HMACSHA256.authenticationCode(key: key, message: Array("revue-files-v1\n\(scope)\n\(expires)".utf8))).prefix(32))
    }
}
