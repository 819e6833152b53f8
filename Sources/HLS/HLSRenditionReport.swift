/// What a low-latency playlist says about another rendition of the same stream
/// (draft-pantos-hls-rfc8216bis §4.4.5.4, `EXT-X-RENDITION-REPORT`): where its playlist is, and
/// its last segment and part, so a player that switches renditions asks for the right part at
/// once with a blocking reload (§6.2.5.2) instead of loading that playlist first.
public struct HLSRenditionReport: Sendable, Equatable {
    /// The other rendition's media playlist, relative to this one.
    public var uri: String
    /// The media sequence number of its last segment: the one being made, when it has parts.
    public var lastSequence: Int
    /// The index of the last part of `lastSequence`; nil for a rendition without parts.
    public var lastPart: Int?

    public init(uri: String, lastSequence: Int, lastPart: Int?) {
        self.uri = uri
        self.lastSequence = lastSequence
        self.lastPart = lastPart
    }

    /// The tag (§4.4.5.4): `LAST-MSN` always, `LAST-PART` when the rendition has parts.
    public var tag: String {
        "#EXT-X-RENDITION-REPORT:URI=\"\(uri)\",LAST-MSN=\(lastSequence)" + (lastPart.map { ",LAST-PART=\($0)" } ?? "")
    }
}
