/// Counters since the router started, for metrics.
public struct RouterStatistics: Sendable, Equatable {
    /// RTP packets accepted from publishers (RTX included).
    public var packetsReceived: UInt64 = 0
    public var bytesReceived: UInt64 = 0
    /// RTP packets dropped on the way in: malformed, unknown SSRC or payload type, duplicates,
    /// too old.
    public var packetsDropped: UInt64 = 0
    /// RTP packets handed out to subscribers (retransmissions included).
    public var packetsSent: UInt64 = 0
    public var bytesSent: UInt64 = 0
    /// Packets sent again to subscribers in answer to their NACKs.
    public var retransmissionsSent: UInt64 = 0
    /// NACKed packets the cache no longer held (or never had).
    public var retransmissionsMissed: UInt64 = 0
    /// NACK packets received from subscribers.
    public var nacksReceived: UInt64 = 0
    /// NACK packets sent to publishers.
    public var nacksSent: UInt64 = 0
    /// PLIs and FIRs received from subscribers.
    public var keyframeRequestsReceived: UInt64 = 0
    /// PLIs and FIRs sent to publishers.
    public var keyframeRequestsSent: UInt64 = 0
    /// RTCP compound packets received that could not be parsed.
    public var rtcpDropped: UInt64 = 0

    public init() {}
}
