import Signaling

/// Someone else in the room (`room.participants`), as the signalling server described them.
@MainActor
public final class RemoteParticipant: Participant {
    /// The room this participant is in, for the calls about them (`setQuality`).
    weak var room: Room?
    /// The layers `setQuality` and `setScreenShareQuality` chose, for asking again after a reconnection.
    var chosenQuality: VideoQuality?
    var chosenShareQuality: VideoQuality?

    init(id: String, displayName: String, mode: Mode, room: Room) {
        self.room = room
        super.init(id: id, displayName: displayName, mode: mode)
    }

    /// Chooses which of this participant's camera's simulcast layers this client receives: the
    /// SFU switches at the layer's next keyframe, which it asks the sender for (seed 004, "to
    /// set the quality you receive from another participant, use setQuality() on that
    /// Participant"). A participant who sends one layer is received as they send it. Their
    /// screen share keeps its own layer (`setScreenShareQuality`).
    /// - Throws: 3035 before the room is joined, 3066 in SIGNALLING_ONLY (no video is
    ///   received), the server's refusal (4xxx) otherwise.
    public func setQuality(_ quality: VideoQuality) async throws(VideoSDKError) {
        try await choose(quality, of: .video)
        chosenQuality = quality
    }

    /// Chooses which layer of this participant's screen share this client receives, when they
    /// share with `multiStream` (three layers); as `setQuality` does for the camera. Revue's
    /// addition: the seed's one call is the camera's.
    /// - Throws: as `setQuality`.
    public func setScreenShareQuality(_ quality: VideoQuality) async throws(VideoSDKError) {
        try await choose(quality, of: .share)
        chosenShareQuality = quality
    }

    private func choose(_ quality: VideoQuality, of kind: Signaling.StreamKind) async throws(VideoSDKError) {
        guard let room else { throw VideoSDKError.ERROR_ACTION_PERFORMED_BEFORE_ROOM_JOINED.with("\(displayName) is not in a room this client is in") }
        try room.checkJoined()
        let layer: Signaling.VideoQuality = switch quality {
        case .high: .high
        case .medium: .med
        case .low: .low
        }
        if case .error(let code, let message) = try await room.request(.setQuality(participantID: id, quality: layer, kind: kind)) {
            throw VideoSDKError(code, message)
        }
    }
}
