import Signaling

/// What of a participant is pinned for everyone (`onPinStateChanged`): the camera, the share.
public typealias PinState = Signaling.PinState
