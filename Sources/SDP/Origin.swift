/// The `o=` line (RFC 8866 §5.2): `o=<username> <sess-id> <sess-version> <nettype> <addrtype> <address>`.
/// JSEP (RFC 8829 §5.2.1) keeps `sess-id` for the life of a session and increments
/// `sess-version` with every new description.
public struct Origin: Sendable, Equatable {
    public var username: String
    public var sessionID: UInt64
    public var sessionVersion: UInt64
    public var networkType: String
    public var addressType: String
    public var address: String

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
