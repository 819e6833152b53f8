/// What a datagram on the shared port is, by its first byte (RFC 7983 §7, as updated by
/// RFC 9443 §2): one UDP port carries STUN, DTLS, and SRTP/SRTCP for every peer.
///
/// ```
///              +----------------+
///              |        [0..3] -+--> STUN
///              |      [16..19] -+--> ZRTP (dropped)
///  packet -->  |      [20..63] -+--> DTLS
///              |      [64..79] -+--> TURN channel (dropped)
///              |    [128..191] -+--> RTP/RTCP
///              +----------------+
/// ```
public enum DatagramClass: Sendable, Equatable {
    case stun
    case dtls
    /// SRTP or SRTCP; RFC 5761 §4 tells them apart by the second byte (RTCP types 192–223).
    case rtp
    case rtcp
    case other

    public init(_ bytes: some Collection<UInt8>) {
        guard let first = bytes.first else {
            self = .other
            return
        }
        switch first {
        case 0...3: self = .stun
        case 20...63: self = .dtls
        case 128...191:
            let second = bytes.dropFirst().first ?? 0
            self = (192...223).contains(second) ? .rtcp : .rtp
        default: self = .other
        }
    }
}
