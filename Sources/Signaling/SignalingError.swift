/// A request the server refused, or a frame it could not read: what the `error` message
/// carries. `description` is safe to show to whoever sent the request.
public struct SignalingError: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: ErrorCode
    public let message: String
    /// The `id` of the request refused, when the frame had one that could be read.
    public var requestID: RequestID?

    public init(_ code: ErrorCode, _ message: String, requestID: RequestID? = nil) {
        self.code = code
        self.message = message
        self.requestID = requestID
    }

    public var description: String { "\(code.name) (\(code.code)): \(message)" }

    /// The same error answering request `id`.
    public func answering(_ id: RequestID?) -> SignalingError {
        var copy = self
        copy.requestID = id
        return copy
    }
}
