import RoomReceiver

/// One stream a participant publishes: its microphone, camera or screen share. The room keeps
/// one per kind in `Participant.streams` while it is on (`onStreamEnabled` / `onStreamDisabled`).
/// A remote stream's media, as this client receives and decodes it, is in `remoteVideoTrack`
/// (camera, screen share) or `remoteAudioTrack` (microphone) (docs/SDK.md).
@MainActor
public final class Stream: Identifiable {
    /// `<participantId>-<kind>`, stable while the stream is on.
    public nonisolated let id: String
    public nonisolated let kind: StreamKind
    /// The local camera or microphone track sending it; nil for a remote stream.
    public let track: CustomStreamTrack?
    /// A remote camera's or screen share's pictures as they are received and decoded; nil for a
    /// local stream, audio, or a room that receives nothing (`SIGNALLING_ONLY`; after a change
    /// to a mode with media the stream is made again with it: `onStreamDisabled`, then
    /// `onStreamEnabled`).
    public nonisolated let remoteVideoTrack: RemoteVideoTrack?
    /// A remote microphone's sound as it is received and decoded; nil as `remoteVideoTrack` is.
    public nonisolated let remoteAudioTrack: RemoteAudioTrack?

    /// `remote` is what the room's receiver has of a remote participant's stream of `kind`.
    init(participantID: String, kind: StreamKind, track: CustomStreamTrack? = nil, remote: RemoteTrack? = nil) {
        id = "\(participantID)-\(kind.rawValue.lowercased())"
        self.kind = kind
        self.track = track
        remoteVideoTrack = kind == .AUDIO ? nil : remote.map(RemoteVideoTrack.init)
        remoteAudioTrack = kind == .AUDIO ? remote.map(RemoteAudioTrack.init) : nil
    }
}
