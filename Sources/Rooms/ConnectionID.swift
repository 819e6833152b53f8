/// One WebSocket connection, as the hub numbers them. The registry never sees sockets: it says
/// what to send to, or close, by this id.
public struct ConnectionID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public var description: String { "connection \(rawValue)" }

    public static func < (lhs: ConnectionID, rhs: ConnectionID) -> Bool { lhs.rawValue < rhs.rawValue }
}
