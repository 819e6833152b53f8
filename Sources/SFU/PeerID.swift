/// One WebRTC connection as the caller knows it (for example a publisher connection or a
/// subscriber connection). The router never looks inside: it only hands it back in the packets
/// it asks the caller to send, so the caller can find the socket address and SRTP session.
public struct PeerID: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    public let rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public init(integerLiteral value: UInt64) {
        rawValue = value
    }

    public static func < (lhs: PeerID, rhs: PeerID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "peer \(rawValue)" }
}
