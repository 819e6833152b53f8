/// Why an HTTP request got no answer: the connection, TLS or a timeout failed (curl's words), or
/// the local file its body comes from could not be read. Any HTTP status is an answer, never this.
public struct HTTPTransferError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case transport
        case localFile
    }

    public let kind: Kind
    /// What was being done: `POST https://…`, `PUT s3://bucket/key (part 3)`.
    public let operation: String
    public let message: String

    public init(_ kind: Kind, _ operation: String, _ message: String) {
        self.kind = kind
        self.operation = operation
        self.message = message
    }

    public var description: String { "\(operation): \(message)" }
}
