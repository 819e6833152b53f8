import Media

/// A kind of stream a participant publishes: microphone audio, camera video or a screen share.
/// The signalling protocol's name for `TrackKind`, which every layer shares.
public typealias StreamKind = TrackKind

extension TrackKind: SignalingEnum {}
