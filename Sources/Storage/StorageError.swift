/// Object storage did not do what was asked, and why: the server's answer (status, S3 error
/// code and message), a transport failure (curl's words), a checksum the server's answer did not
/// match, or an upload stopped on purpose. `description` is safe to show (no secrets) and is what
/// a failed job reports.
public struct StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Kind: Sendable, Equatable {
        case server(status: Int, code: String?)
        case transport
        case checksum
        case interrupted
        case localFile
    }

    private let kind: Kind
    /// What was being done: `PUT s3://bucket/key (part 3)`.
    public let operation: String
    public let message: String

    /// The server answered with an HTTP error.
    public static func server(_ operation: String, status: Int, code: String?, message: String) -> StorageError {
        StorageError(kind: .server(status: status, code: code), operation: operation, message: message)
    }

    /// No answer: the connection, TLS or a timeout failed.
    public static func transport(_ operation: String, _ message: String) -> StorageError {
        StorageError(kind: .transport, operation: operation, message: message)
    }

    /// The server's ETag is not the digest of what was sent.
    public static func checksum(_ operation: String, _ message: String) -> StorageError {
        StorageError(kind: .checksum, operation: operation, message: message)
    }

    /// Stopped between parts because the caller asked (the worker is handing the job back).
    public static func interrupted(_ operation: String) -> StorageError {
        StorageError(kind: .interrupted, operation: operation, message: "stopped before it finished; it resumes from the parts done")
    }

    /// The local file could not be read.
    public static func localFile(_ operation: String, _ message: String) -> StorageError {
        StorageError(kind: .localFile, operation: operation, message: message)
    }

    /// The HTTP status of a server answer.
    public var status: Int? {
        if case .server(let status, _) = kind { return status }
        return nil
    }

    /// The S3 error code (`SignatureDoesNotMatch`, `NoSuchUpload`, …) of a server answer.
    public var code: String? {
        if case .server(_, let code) = kind { return code }
        return nil
    }

    public var isInterrupted: Bool { kind == .interrupted }

    /// Whether trying again may help: transport failures, 5xx, 408, 429, a bad digest (bytes
    /// changed on the way) or a checksum mismatch. Refused credentials or signatures do not
    /// get better by retrying.
    public var isRetryable: Bool {
        switch kind {
        case .transport, .checksum: true
        case .server(let status, let code): status >= 500 || status == 408 || status == 429 || code == "BadDigest" || code == "RequestTimeout"
        case .interrupted, .localFile: false
        }
    }

    public var description: String {
        switch kind {
        case .server(let status, let code):
            "\(operation): the server answered \(status)\(code.map { " \($0)" } ?? ""): \(message)"
        case .transport: "\(operation): \(message)"
        case .checksum: "\(operation): checksum mismatch: \(message)"
        case .interrupted: "\(operation): \(message)"
        case .localFile: "\(operation): \(message)"
        }
    }
}
