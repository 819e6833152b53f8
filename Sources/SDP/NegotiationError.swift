/// Why an offer could not be answered, or an answer could not be accepted. The description says
/// whose description is at fault and what is missing (a fingerprint, rtcp-mux, a mid…).
public struct NegotiationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The media section concerned, when there is one.
    public let mid: String?
    /// What is wrong, with the mid when there is one.
    public let description: String

    init(mid: String? = nil, _ description: String) {
        self.mid = mid
        self.description = mid.map { "mid \($0): \(description)" } ?? description
    }
}
