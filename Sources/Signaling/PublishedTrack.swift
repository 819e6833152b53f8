import JobSpec

/// One track a `publishOffer` carries: the offer's m-section (by `a=mid`, RFC 8843 §9.2) and
/// what it is. Video needs saying: the camera and a screen share are both video m-sections.
///
/// A track with `to` is for that one participant (the SDK's `publishCamera(to:options:)`): the
/// server forwards it to them alone, in place of the publisher's room-wide track of the same
/// kind, and to no one else (docs/SIGNALING.md "Tracks for one participant").
public struct PublishedTrack: Sendable, Hashable {
    public var mid: String
    public var kind: StreamKind
    /// The participant id this track is sent to; nil sends it to the room.
    public var to: String?

    public init(mid: String, kind: StreamKind, to: String? = nil) {
        self.mid = mid
        self.kind = kind
        self.to = to
    }

    public var json: JSONValue {
        var fields: [String: JSONValue] = ["mid": .string(mid), "kind": .string(kind.rawValue)]
        if let to { fields["to"] = .string(to) }
        return .object(fields)
    }
}
