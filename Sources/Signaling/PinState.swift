import JobSpec

/// Whether a participant's camera and screen share are pinned for the room (`pinState{cam,share}`).
public struct PinState: Sendable, Hashable {
    public var cam: Bool
    public var share: Bool

    public init(cam: Bool = false, share: Bool = false) {
        self.cam = cam
        self.share = share
    }

    /// Nothing pinned.
    public static let none = PinState()

    public var isPinned: Bool { cam || share }

    /// This state with `type` pinned too.
    public func pinning(_ type: PinType) -> PinState {
        PinState(cam: cam || type.state.cam, share: share || type.state.share)
    }

    /// This state with `type` no longer pinned.
    public func unpinning(_ type: PinType) -> PinState {
        PinState(cam: cam && !type.state.cam, share: share && !type.state.share)
    }

    public var json: JSONValue { .object(["cam": .bool(cam), "share": .bool(share)]) }
}
