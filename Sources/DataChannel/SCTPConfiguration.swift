/// The settings of one SCTP association for data channels. The defaults fit WebRTC: port 5000
/// both sides (RFC 8841 §5), 1024 streams each way, packets that fit a 1200-byte DTLS datagram.
public struct SCTPConfiguration: Sendable, Hashable {
    /// This side's SCTP port (`a=sctp-port`).
    public var localPort: UInt16
    /// The peer's SCTP port (its `a=sctp-port`).
    public var remotePort: UInt16
    /// The largest message this side sends or accepts, in bytes (`a=max-message-size`, RFC 8841
    /// §6). Larger sends throw `.messageTooLarge`; larger incoming messages are dropped.
    public var maxMessageSize: Int
    /// Streams offered each way; channel ids are below the smaller of this and the peer's.
    /// usrsctp keeps per-stream state, so 65535 costs memory on a server with many peers.
    public var streams: UInt16
    /// The largest SCTP packet, in bytes. DTLS adds its record overhead (up to about 60 bytes
    /// with CBC suites) on top, so 1140 keeps datagrams under 1200.
    public var mtu: Int
    /// How many bytes of messages may wait here for room in SCTP's send buffer before `send`
    /// throws `.bufferFull`.
    public var maxBufferedAmount: Int
    /// The first retransmission timeout in seconds (RFC 9260 §15: RTO.Initial is 1 s; usrsctp's
    /// default is 3 s). The retransmission timer is driven by `handleTimers(now:)`.
    public var initialRetransmissionTimeout: Double
    /// The clock the `now` values given to the association are read on: the monotonic clock,
    /// unless it is driven on injected time (`SCTPClock`).
    public var clock: SCTPClock

    public init(localPort: UInt16 = 5000, remotePort: UInt16 = 5000, maxMessageSize: Int = 65_536, streams: UInt16 = 1024,
                mtu: Int = 1140, maxBufferedAmount: Int = 16 << 20, initialRetransmissionTimeout: Double = 1, clock: SCTPClock = .monotonic)
    {
        self.localPort = localPort
        self.remotePort = remotePort
        self.maxMessageSize = maxMessageSize
        self.streams = streams
        self.mtu = mtu
        self.maxBufferedAmount = maxBufferedAmount
        self.initialRetransmissionTimeout = initialRetransmissionTimeout
        self.clock = clock
    }
}
