/// How long a DTLS endpoint waits for the peer's next flight before it sends its own again
/// (RFC 6347 §4.2.4): `initial`, doubling each time, never above `maximum`. OpenSSL gives up after
/// 12 retransmissions of one flight.
///
/// OpenSSL 3.0 counts a timer with under 15 ms left as run out, and checks its timer whenever it
/// reads; a shorter wait would make it retransmit over and over inside one call. So no wait is
/// shorter than `shortest` (20 ms).
public struct DTLSRetransmission: Sendable, Equatable {
    /// The first wait, in seconds.
    public var initial: Double
    /// The longest wait, in seconds.
    public var maximum: Double

    /// The shortest wait OpenSSL 3.0 handles, in seconds.
    public static let shortest = 0.02

    /// A schedule; waits under `shortest` are raised to it.
    public init(initial: Double, maximum: Double) {
        self.initial = max(initial, Self.shortest)
        self.maximum = max(self.initial, maximum)
    }

    /// 100 ms doubling to 4 s, as mediasoup does: a lost packet on a call costs a tenth of a
    /// second, not RFC 6347's one second, and a dead peer is given up after about 30 s.
    public static let standard = DTLSRetransmission(initial: 0.1, maximum: 4)

    /// The wait after one of `previous` seconds (0 for the first).
    func next(after previous: Double) -> Double {
        previous <= 0 ? initial : min(previous * 2, maximum)
    }
}
