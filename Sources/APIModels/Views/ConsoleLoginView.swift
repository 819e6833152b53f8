/// The answer to `POST /v2/console/login` (Revue's): a crawler token for the REST API, valid
/// until `expiresAt`, that the console sends as `Authorization`.
public struct ConsoleLoginView: Codable, Sendable, Equatable {
    public var token: String
    public var expiresAt: String
    /// The one room the token is limited to, if the operator token it came from was.
    @NullEncoded public var roomId: String?

    public init(token: String, expiresAt: String, roomId: String?) {
        self.token = token
        self.expiresAt = expiresAt
        self.roomId = roomId
    }
}
