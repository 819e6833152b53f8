import Publisher

/// This client in the room (`room.localParticipant`).
@MainActor
public final class LocalParticipant: Participant {
    public override var isLocal: Bool { true }
    /// The room it joined, for its publications.
    weak var room: Room?
    /// Its publications to one participant each, by id.
    private(set) var publications: [Int: LocalTrackPublication] = [:]

    /// Sends the camera to `participant` on a track of its own, encoded as `options` say
    /// (VP8 with every frame a keyframe, at most 15 fps, by default). The participant receives
    /// it in place of the room-wide camera; the others are not affected. Returns once the
    /// server has accepted the track; the pictures are the camera's while it is on.
    /// - Throws: `invalidParameter` for an option out of range, `notJoined` outside a joined
    ///   room, `publishFailed` when the server refuses the track.
    @discardableResult
    public func publishCamera(to participant: RemoteParticipant, options: VideoPublishOptions = VideoPublishOptions()) async throws(RoomError)
        -> LocalTrackPublication
    {
        let settings = try LocalTrackPublication.settings(options)
        guard let room, room.state == .CONNECTED, let publisher = room.publisher else { throw RoomError.notJoined }
        let box = PublicationIDBox()
        let result: Result<Void, DirectedVideoError> = await withCheckedContinuation { continuation in
            box.id = publisher.publishVideo(to: participant.id, settings: settings) { continuation.resume(returning: $0) }
        }
        if case .failure(let error) = result { throw RoomError.publishFailed(reason: error.message) }
        let publication = LocalTrackPublication(id: box.id, participant: participant, options: options, publisher: publisher)
        // It may have left while the server answered.
        guard room.participants[participant.id] != nil, room.state == .CONNECTED else {
            publication.unpublish()
            throw RoomError.publishFailed(reason: "\(participant.id) left the room")
        }
        publications[publication.id] = publication
        return publication
    }

    /// After a reconnection: each publication is published again on the new publisher (the old
    /// one's tracks went with its connection), with the options it has now; one the server
    /// refuses ends.
    func republish(on publisher: RoomPublisher) async {
        for (oldID, publication) in publications.sorted(by: { $0.key < $1.key }) {
            guard publication.isPublished, let options = publication.videoPublishOptions,
                  let settings = try? LocalTrackPublication.settings(options) else { continue }
            let box = PublicationIDBox()
            let result: Result<Void, DirectedVideoError> = await withCheckedContinuation { continuation in
                box.id = publisher.publishVideo(to: publication.participant.id, settings: settings) { continuation.resume(returning: $0) }
            }
            publications[oldID] = nil
            guard case .success = result, publication.isPublished else {
                publication.ended()
                publisher.unpublishVideo(publication: box.id)
                continue
            }
            publication.moved(to: publisher, id: box.id)
            publications[box.id] = publication
        }
    }

    /// The publications to a participant who left, or all of them when the room closed, end.
    func endPublications(to participantID: String? = nil) {
        for (id, publication) in publications where participantID == nil || publication.participant.id == participantID {
            publication.unpublish()
            publications[id] = nil
        }
    }
}

/// The publication id `publishVideo` or `publishShare` returns, kept for after its completion
/// (which may come before the call has returned it).
final class PublicationIDBox {
    var id = 0
}
