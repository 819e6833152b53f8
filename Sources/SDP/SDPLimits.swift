/// What one description may cost to read: a peer's offer arrives from outside, and the work to
/// answer it grows with its sections, so both are bounded before anything is built from it.
public struct SDPLimits: Sendable, Equatable {
    /// The whole text, in bytes.
    public var maxBytes: Int
    /// Lines, blank ones included.
    public var maxLines: Int
    /// `m=` sections.
    public var maxMediaSections: Int

    /// 256 KiB, 16,384 lines, 256 sections: room for the server's own offer to a subscriber in a
    /// full room (and the answer to it); a publisher's offer is held to far fewer sections
    /// (`SDPLimits.publisherOffer`).
    public init(maxBytes: Int = 262_144, maxLines: Int = 16_384, maxMediaSections: Int = 256) {
        self.maxBytes = maxBytes
        self.maxLines = maxLines
        self.maxMediaSections = maxMediaSections
    }

    /// What a publisher (signalling or WHIP) may offer: a camera, a microphone, a screen share
    /// and its audio, a data channel, and custom tracks for a few participants: 16 sections in all,
    /// since each sending section becomes a section in every other member's subscriber offer.
    public static let publisherOffer = SDPLimits(maxBytes: 131_072, maxLines: 4_096, maxMediaSections: 16)
}
