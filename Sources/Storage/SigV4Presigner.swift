import Crypto
import Foundation

/// Presigned URLs (AWS Signature Version 4 in the query string): a GET link to a private object
/// that works without credentials until it expires, or a PUT link for someone else to upload
/// with. Pure: the time is a parameter.
/// https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html
public struct SigV4Presigner: Sendable {
    public var accessKeyID: String
    public var secretAccessKey: String
    public var sessionToken: String?
    public var region: String
    public var service = "s3"

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, region: String) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.region = region
    }

    /// `scheme://host[:port]` + `path` (already URI-encoded, `/bucket/key`) signed for `method`,
    /// valid `expires` seconds from `now`. Only `host` is signed and the payload is
    /// `UNSIGNED-PAYLOAD`, as S3 presigned URLs are.
    public func presign(method: String, scheme: String, host: String, path: String, expires: Int, now: Date,
                        extraQuery: [(String, String)] = []) -> String
    {
        let (date, day) = SigV4Presigner.timestamps(now)
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        var parameters = extraQuery + [
            ("X-Amz-Algorithm", "AWS4-HMAC-SHA256"),
            ("X-Amz-Credential", "\(accessKeyID)/\(scope)"),
            ("X-Amz-Date", date),
            ("X-Amz-Expires", String(expires)),
            ("X-Amz-SignedHeaders", "host"),
        ]
        if let sessionToken { parameters.append(("X-Amz-Security-Token", sessionToken)) }
        let query = S3URIEncoding.query(parameters)
        let canonical = [method, path, query, "host:\(host)", "", "host", "UNSIGNED-PAYLOAD"].joined(separator: "\n")
        let stringToSign = ["AWS4-HMAC-SHA256", date, scope, SHA256.hexHash(Array(canonical.utf8))].joined(separator: "\n")
        let signature = Hex.encode(HMACSHA256.authenticationCode(key: signingKey(day: day), message: Array(stringToSign.utf8)))
        return "\(scheme)://\(host)\(path)?\(query)&X-Amz-Signature=\(signature)"
    }

    /// The derived key: HMAC chained over the day, region, service and "aws4_request".
    func signingKey(day: String) -> [UInt8] {
        var key = HMACSHA256.authenticationCode(key: Array("AWS4\(secretAccessKey)".utf8), message: Array(day.utf8))
        for part in [region, service, "aws4_request"] {
            key = HMACSHA256.authenticationCode(key: key, message: Array(part.utf8))
        }
        return key
    }

    /// `20130524T000000Z` and `20130524`, in UTC.
    static func timestamps(_ now: Date) -> (String, String) {
        var seconds = time_t(now.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let day = String(format: "%04d%02d%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
        return (day + String(format: "T%02d%02d%02dZ", Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec)), day)
    }
}
