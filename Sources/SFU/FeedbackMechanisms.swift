/// The RTCP feedback a peer negotiated for a track (`a=rtcp-fb`, RFC 4585 §4.2), which decides
/// what the router may send it: for a publisher, what it asks of the publisher; for a
/// subscriber, what it will answer and read.
public struct FeedbackMechanisms: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Generic NACK (`nack`, RFC 4585 §6.2.1).
    public static let nack = FeedbackMechanisms(rawValue: 1 << 0)
    /// Picture loss indication (`nack pli`, RFC 4585 §6.3.1).
    public static let pli = FeedbackMechanisms(rawValue: 1 << 1)
    /// Full intra request (`ccm fir`, RFC 5104 §4.3.1).
    public static let fir = FeedbackMechanisms(rawValue: 1 << 2)
    /// Receiver estimated maximum bitrate (`goog-remb`).
    public static let remb = FeedbackMechanisms(rawValue: 1 << 3)
    /// Transport-wide congestion control feedback (`transport-cc`).
    public static let transportCC = FeedbackMechanisms(rawValue: 1 << 4)

    /// What browsers negotiate for video: NACK, PLI, FIR and REMB.
    public static let video: FeedbackMechanisms = [.nack, .pli, .fir, .remb]
}
