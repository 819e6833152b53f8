import JobSpec
/// The body of every error answer: `{"statusCode", "error", "code", "message"}` (docs/API.md).
public struct ErrorBody: Codable, Sendable, Equatable {
    public var statusCode: Int
    public var error: String
    public var code: Int
    public var message: String

    public init(statusCode: Int, error: String, code: Int, message: String) {
        self.statusCode = statusCode
        self.error = error
        self.code = code
        self.message = message
    }
}
