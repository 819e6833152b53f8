import Crypto
import Foundation
import JobSpec
import OutboundHTTP

/// The S3 operations Revue uses, on the server's bucket (`ObjectStorageConfig`), over libcurl
/// with SigV4 signing. Every body is sent with `Content-MD5` (which S3, MinIO and rclone check,
/// answering 400 BadDigest on a mismatch) and its SHA-256 in the signed `x-amz-content-sha256`,
/// and each answer's ETag is checked against the MD5 of what was sent.
public final class S3Client: Sendable {
    public let config: ObjectStorageConfig
    private let scheme: String
    private let endpointHost: String

    /// SHA-256 of nothing, the payload hash of a request without a body.
    static let emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    public init(config: ObjectStorageConfig) {
        self.config = config
        let url = URL(string: config.endpoint)
        scheme = url?.scheme?.lowercased() ?? "https"
        endpointHost = (url?.host ?? "localhost") + (url?.port.map { ":\($0)" } ?? "")
    }

    /// The host requests go to, and the path of `key` on it.
    func location(_ key: String) -> (host: String, path: String) {
        let encodedKey = S3URIEncoding.encode(key, keepSlash: true)
        switch config.addressingStyle {
        case .path: return (endpointHost, "/\(S3URIEncoding.encode(config.bucket))/\(encodedKey)")
        case .virtualHost: return ("\(config.bucket).\(endpointHost)", "/\(encodedKey)")
        }
    }

    /// `s3://bucket/key`, for messages.
    public func name(_ key: String) -> String { "s3://\(config.bucket)/\(key)" }

    /// The object's plain URL: the public base when configured, else the endpoint's (which
    /// opens without a signature only for a public bucket).
    public func objectURL(_ key: String) -> String {
        if let base = config.publicURL { return base + "/" + S3URIEncoding.encode(key, keepSlash: true) }
        let (host, path) = location(key)
        return "\(scheme)://\(host)\(path)"
    }

    /// A URL that GETs the object without credentials until `expires` seconds after `now`, or the
    /// public URL when a public base is configured.
    public func downloadURL(_ key: String, now: Date = Date()) -> String {
        if config.publicURL != nil { return objectURL(key) }
        return presignedURL(method: "GET", key: key, expires: config.urlExpiry, now: now)
    }

    /// A presigned URL for `method` on `key`.
    public func presignedURL(method: String, key: String, expires: Int, now: Date) -> String {
        let (host, path) = location(key)
        return presigner.presign(method: method, scheme: scheme, host: host, path: path, expires: expires, now: now)
    }

    var presigner: SigV4Presigner {
        SigV4Presigner(accessKeyID: config.accessKeyID, secretAccessKey: config.secretAccessKey, sessionToken: config.sessionToken,
                       region: config.region)
    }

    // MARK: - Objects

    /// PUT of a whole object from bytes; returns its ETag after checking it is the bytes' MD5.
    @discardableResult
    public func putObject(key: String, bytes: [UInt8], contentType: String, cacheControl: String? = nil) throws(StorageError) -> String {
        var headers = [("Content-Type", contentType)]
        if let cacheControl { headers.append(("Cache-Control", cacheControl)) }
        let operation = "PUT \(name(key))"
        let response = try send("PUT", key: key, body: bytes, headers: headers, operation: operation)
        return try S3Client.checkedETag(response, md5: MD5.hash(bytes), operation: operation)
    }

    /// Starts a multipart upload; returns its upload id.
    public func createMultipartUpload(key: String, contentType: String) throws(StorageError) -> String {
        let operation = "create a multipart upload of \(name(key))"
        let response = try send("POST", key: key, query: [("uploads", "")], body: [], headers: [("Content-Type", contentType)],
                                operation: operation)
        guard let id = S3XML.firstText(of: "UploadId", in: response.body), !id.isEmpty else {
            throw .server(operation, status: response.status, code: nil, message: "the answer has no UploadId")
        }
        return id
    }

    /// Uploads one part (1…10000); returns its ETag, checked against the part's MD5.
    public func uploadPart(key: String, uploadID: String, number: Int, bytes: [UInt8]) throws(StorageError) -> String {
        let operation = "PUT \(name(key)) part \(number)"
        let response = try send("PUT", key: key, query: [("partNumber", String(number)), ("uploadId", uploadID)], body: bytes,
                                headers: [], operation: operation)
        return try S3Client.checkedETag(response, md5: MD5.hash(bytes), operation: operation)
    }

    /// Completes a multipart upload from its parts (number and ETag), in order. S3 may answer
    /// 200 with an error inside, which counts as the error it is. The final ETag
    /// (MD5 of the parts' MD5s, `-N`) is checked when the server answers in that form.
    @discardableResult
    public func completeMultipartUpload(key: String, uploadID: String, parts: [(number: Int, etag: String)]) throws(StorageError) -> String {
        let operation = "complete the multipart upload of \(name(key))"
        let sorted = parts.sorted { $0.number < $1.number }
        var xml = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
        for part in sorted {
            xml += "<Part><PartNumber>\(part.number)</PartNumber><ETag>\(S3XML.escape("\"\(part.etag)\""))</ETag></Part>"
        }
        xml += "</CompleteMultipartUpload>"
        let response = try send("POST", key: key, query: [("uploadId", uploadID)], body: Array(xml.utf8),
                                headers: [("Content-Type", "application/xml")], operation: operation)
        if String(decoding: response.body.prefix(4096), as: UTF8.self).contains("<Error>") {
            throw S3Client.failure(response, operation: operation)
        }
        let etag = S3Client.unquote(S3XML.firstText(of: "ETag", in: response.body) ?? response.header("etag") ?? "")
        let expected = Hex.encode(MD5.hash(sorted.flatMap { Hex.decode($0.etag) ?? [] })) + "-\(sorted.count)"
        if etag.contains("-") && etag.lowercased() != expected {
            throw .checksum(operation, "the object's ETag is \(etag), the parts sent make \(expected)")
        }
        return etag
    }

    /// Abandons a multipart upload (its parts are deleted).
    public func abortMultipartUpload(key: String, uploadID: String) throws(StorageError) {
        _ = try send("DELETE", key: key, query: [("uploadId", uploadID)], body: nil, headers: [], operation: "abort the upload of \(name(key))")
    }

    /// GET (or HEAD) of an object: its bytes and headers.
    public func getObject(key: String, method: String = "GET") throws(StorageError) -> HTTPTransfer.Response {
        try send(method, key: key, body: nil, headers: [], operation: "\(method) \(name(key))")
    }

    // MARK: - Requests

    /// One signed request. A 2xx answer is returned; any other throws with the S3 error's code and message.
    func send(_ method: String, key: String, query: [(String, String)] = [], body: [UInt8]?, headers: [(String, String)],
              operation: String) throws(StorageError) -> HTTPTransfer.Response
    {
        let (host, path) = location(key)
        let queryText = query.isEmpty ? "" : "?" + S3URIEncoding.query(query)
        var allHeaders = headers
        if let body {
            allHeaders.append(("Content-MD5", Data(MD5.hash(body)).base64EncodedString()))
            allHeaders.append(("x-amz-content-sha256", SHA256.hexHash(body)))
        } else {
            allHeaders.append(("x-amz-content-sha256", S3Client.emptySHA256))
        }
        if let token = config.sessionToken { allHeaders.append(("x-amz-security-token", token)) }
        var transfer = HTTPTransfer(method: method, url: "\(scheme)://\(host)\(path)\(queryText)", headers: allHeaders,
                                    body: body.map { .bytes($0) } ?? .none,
                                    signing: .init(accessKeyID: config.accessKeyID, secretAccessKey: config.secretAccessKey, region: config.region),
                                    caFile: config.caFile)
        transfer.timeout = 600
        let response = try transfer.performForStorage(operation: operation)
        guard (200..<300).contains(response.status) else { throw S3Client.failure(response, operation: operation) }
        return response
    }

    /// The error an S3 answer describes (`<Error><Code>…</Code><Message>…</Message></Error>`).
    static func failure(_ response: HTTPTransfer.Response, operation: String) -> StorageError {
        let code = S3XML.firstText(of: "Code", in: response.body)
        var message = S3XML.firstText(of: "Message", in: response.body) ?? ""
        if message.isEmpty {
            message = String(decoding: response.body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if message.isEmpty { message = "no details" }
        return .server(operation, status: response.status, code: code, message: message)
    }

    /// The answer's ETag, which for a single PUT or a part is the MD5 of the body: a mismatch
    /// means the bytes stored are not the bytes sent.
    static func checkedETag(_ response: HTTPTransfer.Response, md5: [UInt8], operation: String) throws(StorageError) -> String {
        let etag = unquote(response.header("etag") ?? "")
        let expected = Hex.encode(md5)
        // Servers that encrypt with KMS answer with an ETag that is not the MD5; only a 32-hex
        // ETag is held to it (the server checked Content-MD5 in any case).
        if etag.count == 32, Hex.decode(etag) != nil, etag.lowercased() != expected {
            throw .checksum(operation, "the server stored ETag \(etag), the MD5 of what was sent is \(expected)")
        }
        return etag.isEmpty ? expected : etag
    }

    static func unquote(_ text: String) -> String {
        var value = text.trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("W/") { value.removeFirst(2) }
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
        return value
    }
}
