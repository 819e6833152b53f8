/// A published track, as `Router.addProducer` numbered it.
public struct ProducerID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(_ rawValue: UInt32) {
        self.rawValue = rawValue
    }

    public static func < (lhs: ProducerID, rhs: ProducerID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "producer \(rawValue)" }
}
