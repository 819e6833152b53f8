import RoomReceiver
import Signaling

/// Someone in the room, as the room last heard: id, name, mode and the streams they publish
/// now. `LocalParticipant` is this client; `RemoteParticipant` everyone else.
@MainActor
public class Participant: Identifiable {
    public nonisolated let id: String
    public internal(set) var displayName: String
    public internal(set) var mode: Mode
    /// The streams that are on, by their id.
    public internal(set) var streams: [String: Stream] = [:]
    public var isLocal: Bool { false }

    init(id: String, displayName: String, mode: Mode) {
        self.id = id
        self.displayName = displayName
        self.mode = mode
    }

    /// The stream of `kind` that is on, if any.
    public func stream(of kind: StreamKind) -> Stream? {
        streams.values.first { $0.kind == kind }
    }

    /// Adds the stream of `kind`; the stream, or nil when one was on already. `remote` is the
    /// receiver's track of a remote participant's stream.
    func enable(_ kind: StreamKind, track: CustomStreamTrack? = nil, remote: RemoteTrack? = nil) -> Stream? {
        guard stream(of: kind) == nil else { return nil }
        let stream = Stream(participantID: id, kind: kind, track: track, remote: remote)
        streams[stream.id] = stream
        return stream
    }

    /// Removes the stream of `kind`; the stream, or nil when it was off.
    func disable(_ kind: StreamKind) -> Stream? {
        guard let stream = stream(of: kind) else { return nil }
        streams[stream.id] = nil
        return stream
    }
}
