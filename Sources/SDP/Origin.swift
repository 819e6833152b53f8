/// The `o=` line (RFC 8866 §5.2): `o=<username> <sess-id> <sess-version> <nettype> <addrtype> <address>`.
/// JSEP (RFC 8829 §5.2.1) keeps `sess-id` for the life of a session and increments
/// `sess-version` with every new description.
public struct Origin: Sendable, Equatable {
    /// The username; WebRTC writes `-` (Firefox its version).
    public var username: String
    /// The session id.
    public var sessionID: UInt64
    /// The version, incremented with every new description.
    public var sessionVersion: UInt64
    /// `IN`.
    public var networkType: String
    /// `IP4` or `IP6`.
    public var addressType: String
    /// The origin address; meaningless in WebRTC.
    public var address: String

    /// An origin.
    public init(username: String = "-", sessionID: UInt64, sessionVersion: UInt64, networkType: String = "IN",
                addressType: String = "IP4", address: String = "0.0.0.0")
    {
        self.username = username
        self.sessionID = sessionID
        self.sessionVersion = sessionVersion
        self.networkType = networkType
        self.addressType = addressType
        self.address = address
    }

    var text: String { "\(username) \(sessionID) \(sessionVersion) \(networkType) \(addressType) \(address)" }
}
