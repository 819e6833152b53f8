/// Text that is not an IP address or endpoint. The description quotes the text.
public struct SocketAddressError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Reason: Sendable, Equatable {
        case badIPv4(String)
        case badIPv6(String)
        case badSocketAddress(String)
        case badPort(String)
    }

    let reason: Reason

    init(_ reason: Reason) { self.reason = reason }

    public var description: String {
        switch reason {
        case .badIPv4(let text): "not an IPv4 address: \"\(text)\""
        case .badIPv6(let text): "not an IPv6 address: \"\(text)\""
        case .badSocketAddress(let text): "not host:port or [IPv6]:port: \"\(text)\""
        case .badPort(let text): "not a port from 0 to 65535: \"\(text)\""
        }
    }
}
