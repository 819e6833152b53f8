import JobSpec

/// One track a `publishOffer` carries: the offer's m-section (by `a=mid`, RFC 8843 §9.2) and
/// what it is. Video needs saying: the camera and a screen share are both video m-sections.
public struct PublishedTrack: Sendable, Hashable {
    public var mid: String
    public var kind: StreamKind

    public init(mid: String, kind: StreamKind) {
        self.mid = mid
        self.kind = kind
    }

    public var json: JSONValue { .object(["mid": .string(mid), "kind": .string(kind.rawValue)]) }
}
