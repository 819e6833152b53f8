/// This client in the room (`room.localParticipant`).
@MainActor
public final class LocalParticipant: Participant {
    public override var isLocal: Bool { true }
}
