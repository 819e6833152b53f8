/// An answer to a remote offer, and what it negotiated.
public struct Answer: Sendable, Equatable {
    /// The answer to send back.
    public var description: SessionDescription
    /// The per-section summary the SFU uses.
    public var negotiation: Negotiation

    /// An answer and its summary.
    public init(description: SessionDescription, negotiation: Negotiation) {
        self.description = description
        self.negotiation = negotiation
    }
}
