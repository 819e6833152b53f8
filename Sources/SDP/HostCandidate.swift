/// Revue's own ICE candidate as it writes it: one UDP host candidate (RFC 8839 §5.1), so that a
/// peer with trickle off (aiortc) has an address before connectivity checks start.
///
/// ```
/// candidate:<foundation> <component> udp <priority> <address> <port> typ host generation 0
/// ```
public struct HostCandidate: Sendable, Equatable {
    /// The candidate foundation (RFC 8445 §5.1.1.3).
    public var foundation: String
    /// The candidate priority.
    public var priority: UInt32
    /// An IP literal, never a name: aioice pairs only same-family literals.
    public var address: String
    /// The UDP port the server listens on.
    public var port: UInt16

    /// RFC 8445 §5.1.2.1 with type preference 126, local preference 65535, component 1:
    /// 2²⁴·126 + 2⁸·65535 + 255.
    public static let hostPriority: UInt32 = 2_130_706_431

    /// A host candidate.
    public init(address: String, port: UInt16, foundation: String = "1", priority: UInt32 = HostCandidate.hostPriority) {
        self.address = address
        self.port = port
        self.foundation = foundation
        self.priority = priority
    }

    /// The value after `a=candidate:`.
    public var value: String { "\(foundation) 1 udp \(priority) \(address) \(port) typ host generation 0" }
}
