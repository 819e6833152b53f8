/// One `a=rtcp-fb:<pt> <type> [<parameter>]` (RFC 4585 §4.2), such as `nack`, `nack pli`,
/// `ccm fir`, `goog-remb` or `transport-cc`.
public struct RTCPFeedback: Sendable, Hashable, CustomStringConvertible {
    /// The feedback type (`nack`, `ccm`, `goog-remb`, `transport-cc`).
    public var type: String
    /// The parameter (`pli`, `fir`), if any.
    public var parameter: String?

    /// A feedback entry.
    public init(_ type: String, _ parameter: String? = nil) {
        self.type = type
        self.parameter = parameter
    }

    /// Generic NACK (RFC 4585 §6.2.1).
    public static let nack = RTCPFeedback("nack")
    /// Picture loss indication (RFC 4585 §6.3.1).
    public static let pli = RTCPFeedback("nack", "pli")
    /// Full intra request (RFC 5104 §4.3.1).
    public static let fir = RTCPFeedback("ccm", "fir")
    /// Receiver estimated maximum bitrate (draft-alvestrand-rmcat-remb).
    public static let remb = RTCPFeedback("goog-remb")
    /// Transport-wide congestion control feedback (draft-holmer-rmcat-transport-wide-cc-extensions).
    public static let transportCC = RTCPFeedback("transport-cc")

    /// As written after the payload type.
    public var description: String { parameter.map { "\(type) \($0)" } ?? type }

    /// Types and parameters compare without case, as RFC 4585 §4.2 tokens do.
    func sameKind(as other: RTCPFeedback) -> Bool {
        type.lowercased() == other.type.lowercased() && parameter?.lowercased() == other.parameter?.lowercased()
    }
}
