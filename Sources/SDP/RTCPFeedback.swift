/// One `a=rtcp-fb:<pt> <type> [<parameter>]` (RFC 4585 §4.2), such as `nack`, `nack pli`,
/// `ccm fir`, `goog-remb` or `transport-cc`.
public struct RTCPFeedback: Sendable, Hashable, CustomStringConvertible {
    public var type: String
    public var parameter: String?

    public init(_ type: String, _ parameter: String? = nil) {
        self.type = type
        self.parameter = parameter
    }

    public static let nack = RTCPFeedback("nack")
    public static let pli = RTCPFeedback("nack", "pli")
    public static let fir = RTCPFeedback("ccm", "fir")
    public static let remb = RTCPFeedback("goog-remb")
    public static let transportCC = RTCPFeedback("transport-cc")

    /// As written after the payload type.
    public var description: String { parameter.map { "\(type) \($0)" } ?? type }

    /// Types and parameters compare without case, as RFC 4585 §4.2 tokens do.
    func sameKind(as other: RTCPFeedback) -> Bool {
        type.lowercased() == other.type.lowercased() && parameter?.lowercased() == other.parameter?.lowercased()
    }
}
