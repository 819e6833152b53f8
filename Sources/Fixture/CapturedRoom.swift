import MediaSource
import RTP

/// What a capture saw of a room: who was in it when the capture began, what happened and when
/// (on the source's clock), and which streams were heard; and the manifest that replays it.
///
/// A live room's signalling is not yet a manifest: a track can be announced and never sent, an
/// event can name someone who has just left, a join can repeat. `manifest()` plays the room
/// forward as `FixtureManifest` checks it and keeps what the pipeline acts on, so the replay
/// lays out the same tiles: tracks with no RTP packet are left out (the fixture reader refuses
/// them, and they showed nothing), events about someone not in the room are dropped (the
/// compositor ignores them), a repeated join becomes the rename and publishes it amounts to.
/// Times become seconds from the first datagram, the fixture's zero; what happened before it
/// happens at zero, and the tracks published then are folded into `participants`, so a captured
/// manifest reads like a hand-written one.
public struct CapturedRoom: Sendable {
    /// Who was in the room when the capture began, as the source said.
    public let participants: [ParticipantDescription]
    /// Every room event in the order it came, on the source's clock.
    public private(set) var events: [TimedRoomEvent] = []
    /// The SSRCs of the RTP packets seen.
    public private(set) var heard: Set<UInt32> = []
    /// The source time of the first datagram: the fixture's zero.
    public private(set) var firstArrival: Double?
    /// Who is in the room now, in order of arrival, with their current names.
    public private(set) var present: [(id: String, name: String)]

    public init(participants: [ParticipantDescription]) {
        self.participants = participants
        present = participants.map { ($0.id, $0.name) }
    }

    /// Notes a room event at `time` on the source's clock.
    public mutating func record(_ event: RoomEvent, at time: Double) {
        events.append(TimedRoomEvent(at: time, event: event))
        switch event {
        case .join(let participant):
            if let index = present.firstIndex(where: { $0.id == participant.id }) {
                present[index].name = participant.name
            } else {
                present.append((participant.id, participant.name))
            }
        case .leave(let id): present.removeAll { $0.id == id }
        case .rename(let id, let name):
            if let index = present.firstIndex(where: { $0.id == id }) { present[index].name = name }
        default: break
        }
    }

    /// Notes a datagram that arrived at `arrival`; true when the manifest it makes may have
    /// changed (the first datagram sets the zero, a new SSRC makes its track count).
    public mutating func hear(_ datagram: [UInt8], arrival: Double) -> Bool {
        var changed = false
        if firstArrival == nil {
            firstArrival = arrival
            changed = true
        }
        // RTP by its header (RFC 3550 §5.1); RTCP is told apart by its packet type (RFC 5761 §4).
        if !RTPPacket.looksLikeRTCP(datagram) && datagram.count >= 12 {
            let ssrc = UInt32(datagram[8]) << 24 | UInt32(datagram[9]) << 16 | UInt32(datagram[10]) << 8 | UInt32(datagram[11])
            if heard.insert(ssrc).inserted { changed = true }
        }
        return changed
    }

    /// The manifest that replays what was captured, and what it had to leave out (one sentence
    /// each). It fails only when nobody was ever in the room.
    public func manifest() throws(FixtureError) -> (manifest: FixtureManifest, notes: [String]) {
        let origin = firstArrival ?? 0
        var room = Room()
        var notes: [String] = []
        var initial: [ParticipantDescription] = []
        var output: [TimedRoomEvent] = []
        // Participants with an event in `output`: what comes for them later at zero cannot be
        // folded into `initial` without moving it before that event.
        var touched = Set<String>()

        func kept(_ tracks: [TrackDescription], of id: String) -> [TrackDescription] {
            tracks.filter { track in
                guard heard.contains(track.ssrc) else {
                    notes.append("\(id)'s \(track.kind.rawValue) track (ssrc \(track.ssrc)) sent no RTP packet; it is left out")
                    return false
                }
                guard room.owners[track.ssrc] == nil else {
                    notes.append("\(id)'s ssrc \(track.ssrc) is already published by \(room.owners[track.ssrc] ?? "?"); left out")
                    return false
                }
                return true
            }
        }
        func emit(_ event: RoomEvent, at time: Double) {
            output.append(TimedRoomEvent(at: time, event: event))
            touched.insert(event.participantID)
        }

        // The manifest's check refuses an empty id and a second entry for one participant.
        for participant in participants where !participant.id.isEmpty && room.present[participant.id] == nil {
            let tracks = kept(participant.tracks, of: participant.id)
            room.admit(participant.id, tracks: tracks)
            room.names[participant.id] = participant.name
            initial.append(ParticipantDescription(id: participant.id, name: participant.name, tracks: tracks))
        }
        for timed in events where !timed.event.participantID.isEmpty {
            // Microseconds: the pcap's arrival times are no finer once read back.
            let at = max(0, ((timed.at - origin) * 1e6).rounded() / 1e6)
            let id = timed.event.participantID
            let atZero = at == 0 && !touched.contains(id)
            if case .join(let participant) = timed.event {
                if room.present[id] != nil {
                    // A repeated join updates who they are: a rename and any new tracks.
                    if room.names[id] != participant.name {
                        room.names[id] = participant.name
                        emit(.rename(participantID: id, name: participant.name), at: at)
                    }
                    for track in kept(participant.tracks, of: id) {
                        room.publish(track, by: id)
                        emit(.publish(participantID: id, track: track), at: at)
                    }
                    continue
                }
                let joined = ParticipantDescription(id: id, name: participant.name, tracks: kept(participant.tracks, of: id))
                let wasHere = room.everPresent.contains(id)
                room.admit(id, tracks: joined.tracks)
                room.names[id] = joined.name
                if atZero && !wasHere {
                    initial.append(joined)
                } else {
                    emit(.join(joined), at: at)
                }
                continue
            }
            guard let ssrcs = room.present[id] else {
                let type = FixtureManifest.json(of: timed)["type"]?.stringValue ?? "event"
                notes.append("a \(type) event about \(id) at \(at) s, who was not in the room then, is left out")
                continue
            }
            switch timed.event {
            case .join:
                continue
            case .publish(_, let track):
                guard let track = kept([track], of: id).first else { continue }
                room.publish(track, by: id)
                if atZero, let index = initial.firstIndex(where: { $0.id == id }) {
                    initial[index].tracks.append(track)
                } else {
                    emit(timed.event, at: at)
                }
            case .unpublish(_, let ssrc):
                // A track left out above, or one they never published, has nothing to end.
                guard ssrcs.contains(ssrc) else { continue }
                room.unpublish(ssrc, by: id)
                emit(timed.event, at: at)
            case .leave:
                room.leave(id)
                emit(timed.event, at: at)
            case .rename(_, let name):
                room.names[id] = name
                emit(timed.event, at: at)
            case .pin, .unpin, .activeSpeaker:
                emit(timed.event, at: at)
            }
        }
        if initial.isEmpty {
            // Nobody was in the room at the first datagram: the first to join (the first event
            // must be a join) is there from the start instead.
            guard !output.isEmpty, case .join(let participant) = output[0].event else {
                throw FixtureError(.badManifest("nobody was in the room while it was captured"))
            }
            notes.append("nobody was in the room at the first datagram; \(participant.id), who joined at \(output[0].at) s, is there from the start")
            initial = [participant]
            output.removeFirst()
        }
        return (try FixtureManifest(participants: initial, events: output), notes)
    }

    /// The room as the manifest's check plays it: who is in it with which SSRCs, and who owns
    /// each SSRC.
    private struct Room {
        var present: [String: Set<UInt32>] = [:]
        var owners: [UInt32: String] = [:]
        var names: [String: String] = [:]
        var everPresent = Set<String>()

        mutating func admit(_ id: String, tracks: [TrackDescription]) {
            present[id] = []
            everPresent.insert(id)
            for track in tracks { publish(track, by: id) }
        }

        mutating func publish(_ track: TrackDescription, by id: String) {
            present[id, default: []].insert(track.ssrc)
            owners[track.ssrc] = id
        }

        mutating func unpublish(_ ssrc: UInt32, by id: String) {
            present[id]?.remove(ssrc)
            owners[ssrc] = nil
        }

        mutating func leave(_ id: String) {
            for ssrc in present[id] ?? [] { owners[ssrc] = nil }
            present[id] = nil
        }
    }
}
