/// A `c=` line (RFC 8866 §5.7): `c=<nettype> <addrtype> <connection-address>`. WebRTC peers write
/// `IN IP4 0.0.0.0` or their default candidate's address; the address is kept as written
/// (a multicast `/ttl` suffix included).
public struct Connection: Sendable, Equatable {
    /// `IN`.
    public var networkType: String
    /// `IP4` or `IP6`.
    public var addressType: String
    /// The address as written.
    public var address: String

    /// A connection line from its three fields.
    public init(networkType: String = "IN", addressType: String = "IP4", address: String) {
        self.networkType = networkType
        self.addressType = addressType
        self.address = address
    }

    /// `IN IP4 <address>` or `IN IP6 <address>`, chosen by the address's form.
    public init(address: String) {
        self.init(addressType: address.contains(":") ? "IP6" : "IP4", address: address)
    }

    var text: String { "\(networkType) \(addressType) \(address)" }
}
