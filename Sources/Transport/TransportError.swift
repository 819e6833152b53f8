import Glibc

/// A socket or transport that failed, with what the system said.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    /// `what` failed with the current `errno`.
    static func system(_ what: String) -> TransportError {
        TransportError("\(what): \(String(cString: strerror(errno)))")
    }

    public var description: String { message }
}
