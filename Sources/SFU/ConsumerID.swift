/// One subscriber's copy of a producer, as `Router.addConsumer` numbered it.
public struct ConsumerID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(_ rawValue: UInt32) {
        self.rawValue = rawValue
    }

    public static func < (lhs: ConsumerID, rhs: ConsumerID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "consumer \(rawValue)" }
}
