import Foundation

/// Where recordings and HLS go when a job names an `awsDirPath`: one S3-compatible bucket for
/// the whole server (AWS S3, MinIO, GCS in interoperability mode, …). docs/STORAGE.md.
///
/// It is read from the variables S3 tools already read (`AWS_ACCESS_KEY_ID`,
/// `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_REGION`, `AWS_ENDPOINT_URL_S3` or
/// `AWS_ENDPOINT_URL`, `AWS_SHARED_CREDENTIALS_FILE` with `AWS_PROFILE`, `AWS_CA_BUNDLE`) plus
/// `REVUE_S3_*`, never from a command line. A worker hands it to a job's process inside the
/// pipeline spec file (mode 0600), so the secret is never in `ps` either.
public struct ObjectStorageConfig: Sendable, Codable, Equatable, CustomStringConvertible {
    /// How a bucket is named in a URL.
    public enum AddressingStyle: String, Sendable, Codable {
        /// `https://endpoint/bucket/key`: MinIO, rclone and most self-hosted servers.
        case path
        /// `https://bucket.endpoint/key`: what AWS prefers.
        case virtualHost = "virtual"
    }

    /// `https://s3.eu-west-1.amazonaws.com`, `http://127.0.0.1:9000`: scheme, host, port, no path.
    public var endpoint: String
    public var region: String
    public var bucket: String
    public var addressingStyle: AddressingStyle
    public var accessKeyID: String
    public var secretAccessKey: String
    /// Temporary credentials (`AWS_SESSION_TOKEN`), sent as `x-amz-security-token`.
    public var sessionToken: String?
    /// A public or CDN base for objects (`https://cdn.example/recordings`): object URLs are
    /// `publicURL/key` instead of presigned GETs. HLS in the bucket needs one (or a public
    /// bucket), because a playlist's segment URIs cannot carry a signature.
    public var publicURL: String?
    /// Multipart part size in bytes (S3 allows 5 MiB to 5 GiB); files up to this size go in one PUT.
    public var partSize: Int
    /// How long presigned GET URLs in REST answers and webhooks stay valid (SigV4 allows at most 7 days).
    public var urlExpiry: Int
    /// Certificate authorities (PEM) for an https endpoint with a private CA.
    public var caFile: String?

    public static let defaultPartSize = 8 * 1024 * 1024
    public static let minimumPartSize = 5 * 1024 * 1024

    public init(endpoint: String, region: String, bucket: String, addressingStyle: AddressingStyle, accessKeyID: String,
                secretAccessKey: String, sessionToken: String? = nil, publicURL: String? = nil, partSize: Int = defaultPartSize,
                urlExpiry: Int = 86_400, caFile: String? = nil)
    {
        self.endpoint = endpoint
        self.region = region
        self.bucket = bucket
        self.addressingStyle = addressingStyle
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.publicURL = publicURL
        self.partSize = partSize
        self.urlExpiry = urlExpiry
        self.caFile = caFile
    }

    /// The same configuration with its secrets replaced by `***`, for logs and events.
    public var redacted: ObjectStorageConfig {
        var copy = self
        copy.secretAccessKey = "***"
        copy.sessionToken = sessionToken.map { _ in "***" }
        return copy
    }

    public var description: String {
        "s3 bucket \(bucket) at \(endpoint) (\(region), \(addressingStyle.rawValue) style, key \(accessKeyID))"
    }

    /// The configuration the environment describes, or nil when `REVUE_S3_BUCKET` is not set
    /// (no object storage). `readFile` reads a credentials file (injected for tests).
    public static func fromEnvironment(_ environment: [String: String],
                                       readFile: (String) -> String? = { try? String(contentsOfFile: $0, encoding: .utf8) })
        throws(SpecError) -> ObjectStorageConfig?
    {
        func value(_ name: String) -> String? {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return text
        }
        guard let bucket = value("REVUE_S3_BUCKET") else { return nil }
        guard bucket.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_" }), bucket.count <= 255 else {
            throw SpecError("REVUE_S3_BUCKET must be a bucket name (letters, digits, '-', '.', '_'), not '\(bucket)'")
        }
        let region = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") ?? "us-east-1"
        let customEndpoint = value("AWS_ENDPOINT_URL_S3") ?? value("AWS_ENDPOINT_URL")
        let endpoint = customEndpoint ?? "https://s3.\(region).amazonaws.com"
        guard let url = URL(string: endpoint), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), !(url.host ?? "").isEmpty,
              url.path.isEmpty || url.path == "/", url.query == nil
        else { throw SpecError("the S3 endpoint must be http(s)://host[:port] with no path, not '\(endpoint)'") }
        let style: AddressingStyle
        switch value("REVUE_S3_ADDRESSING_STYLE")?.lowercased() {
        case nil: style = customEndpoint == nil ? .virtualHost : .path
        case "path": style = .path
        case "virtual", "virtual-host", "virtualhost": style = .virtualHost
        case let other?: throw SpecError("REVUE_S3_ADDRESSING_STYLE must be path or virtual, not '\(other)'")
        }
        var key = value("AWS_ACCESS_KEY_ID")
        var secret = value("AWS_SECRET_ACCESS_KEY")
        var token = value("AWS_SESSION_TOKEN")
        if key == nil || secret == nil {
            let path = value("AWS_SHARED_CREDENTIALS_FILE") ?? value("HOME").map { $0 + "/.aws/credentials" }
            let profile = value("AWS_PROFILE") ?? "default"
            if let path, let text = readFile(path) {
                let section = AWSCredentialsFile.parse(text)[profile] ?? [:]
                key = section["aws_access_key_id"]
                secret = section["aws_secret_access_key"]
                token = section["aws_session_token"]
            }
        }
        guard let key, let secret else {
            throw SpecError("REVUE_S3_BUCKET is set but there are no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, "
                + "or AWS_SHARED_CREDENTIALS_FILE (profile AWS_PROFILE, default 'default')")
        }
        var config = ObjectStorageConfig(endpoint: endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint, region: region,
                                         bucket: bucket, addressingStyle: style, accessKeyID: key, secretAccessKey: secret,
                                         sessionToken: token, publicURL: value("REVUE_S3_PUBLIC_URL").map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 },
                                         caFile: value("AWS_CA_BUNDLE"))
        if let text = value("REVUE_S3_PART_SIZE") {
            guard let size = Int(text), size >= minimumPartSize, size <= 5 * 1024 * 1024 * 1024 else {
                throw SpecError("REVUE_S3_PART_SIZE must be a number of bytes from 5 MiB (5242880) to 5 GiB, not '\(text)'")
            }
            config.partSize = size
        }
        if let text = value("REVUE_S3_URL_EXPIRES") {
            guard let seconds = Int(text), (1...604_800).contains(seconds) else {
                throw SpecError("REVUE_S3_URL_EXPIRES must be 1 to 604800 seconds (SigV4's limit), not '\(text)'")
            }
            config.urlExpiry = seconds
        }
        return config
    }
}
