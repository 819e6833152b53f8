/// Someone else in the room (`room.participants`), as the signalling server described them.
@MainActor
public final class RemoteParticipant: Participant {}
