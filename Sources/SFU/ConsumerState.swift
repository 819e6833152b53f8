/// A snapshot of one consumer, for logs, metrics and tests.
public struct ConsumerState: Sendable, Equatable {
    public var paused: Bool
    /// The layer being forwarded; nil until the first keyframe.
    public var currentLayer: Int?
    /// The layer the router is moving to (the same as `currentLayer` when settled).
    public var targetLayer: Int
    /// Whether the consumer holds its packets until a keyframe of `targetLayer`.
    public var waitingForKeyframe: Bool
    public var packetsSent: UInt64
    /// Payload bytes sent, as RTCP sender reports count them.
    public var octetsSent: UInt64
    /// The subscriber's last REMB for its connection, bits per second.
    public var estimatedBitrate: UInt64?
    /// The round-trip time from the subscriber's receiver reports, seconds.
    public var roundTripTime: Double?
    /// The subscriber's last reported fraction lost (0...1).
    public var fractionLost: Double
}
