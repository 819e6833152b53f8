/// A UDP or TCP endpoint: an IP address and a port. One UDP port carries every peer, so this is
/// the key a server finds a connection by (RFC 7983 §7); it is Hashable and allocates nothing.
///
/// Text is `127.0.0.1:5000` for IPv4 and `[::1]:5000` for IPv6 (RFC 3986 §3.2.2 brackets).
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible, LosslessStringConvertible {
    /// The IP address.
    public var ip: IPAddress
    /// The port, in host order.
    public var port: UInt16

    /// An endpoint from its parts.
    public init(ip: IPAddress, port: UInt16) {
        self.ip = ip
        self.port = port
    }

    /// Parses `host:port` with a dotted-quad host, or `[host]:port` with an IPv6 host.
    public init(parsing text: some StringProtocol) throws(SocketAddressError) {
        let text = String(text)
        let hostText: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw SocketAddressError(.badSocketAddress(text)) }
            hostText = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw SocketAddressError(.badSocketAddress(text)) }
            portText = rest.dropFirst()
            let host = try IPAddress(parsing: hostText)
            guard host.family == .v6 else { throw SocketAddressError(.badIPv6(String(hostText))) }
            ip = host
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else {
                throw SocketAddressError(.badSocketAddress(text))
            }
            hostText = text[..<colon]
            portText = text[text.index(after: colon)...]
            ip = try IPAddress(parsing: hostText)
        }
        guard (1...5).contains(portText.utf8.count), portText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              let port = UInt16(portText)
        else { throw SocketAddressError(.badPort(String(portText))) }
        self.port = port
    }

    /// Parses like `init(parsing:)`; nil for text that is not an endpoint.
    public init?(_ description: String) {
        guard let address = try? SocketAddress(parsing: description) else { return nil }
        self = address
    }

    /// `192.0.2.1:5000` or `[2001:db8::1]:5000`.
    public var description: String {
        switch ip.family {
        case .v4: "\(ip):\(port)"
        case .v6: "[\(ip)]:\(port)"
        }
    }
}
