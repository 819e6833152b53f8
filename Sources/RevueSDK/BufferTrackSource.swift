/// What a buffer track's pictures are (seed 002, `createBufferTrack(name:source:)`): `.unknown` by
/// default, not a screen share. Kept on the track; a buffer track is sent as a camera either way
/// (`enableCam(customCameraTrack:)`): the screen share (`enableScreenShare`) sends a synthetic
/// screen of its own, not a track's pictures.
public enum BufferTrackSource: String, Sendable, Hashable, CaseIterable {
    case unknown
    case camera
    case screenShare
}
