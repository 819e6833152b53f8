import Layout
import MediaSource

/// Who is in the room as a composite sees it: each participant's name, when they joined, the
/// tracks they publish now and their pin. `RoomComposer` keeps one for the frame it is at, and
/// applies room events to a copy to see the layout they will make (`anticipatedLayout`).
struct RoomRoster {
    struct Member {
        var name: String
        var joinedAt: Double
        var cameraSSRC: UInt32?
        var shareSSRC: UInt32?
        var audioSSRCs: Set<UInt32> = []
        var pinnedAt: Double?

        /// Every track they publish now.
        var ssrcs: [UInt32] { [cameraSSRC, shareSSRC].compactMap { $0 } + audioSSRCs.sorted() }
    }

    private(set) var members: [String: Member] = [:]

    subscript(id: String) -> Member? { members[id] }

    /// The ids, sorted.
    var ids: [String] { members.keys.sorted() }

    /// Applies an event that happened at `time`; returns the SSRCs whose tracks end with it (a
    /// leave's, an unpublished one, a camera or share replaced by a new SSRC). Speaker events
    /// change nothing here.
    @discardableResult
    mutating func apply(_ event: RoomEvent, at time: Double) -> [UInt32] {
        switch event {
        case .join(let participant):
            // A repeated join (a looped fixture, a signalling retry) updates who they are.
            if members[participant.id] != nil {
                members[participant.id]?.name = participant.name
            } else {
                members[participant.id] = Member(name: participant.name, joinedAt: time)
            }
            return participant.tracks.flatMap { publish($0, for: participant.id) }
        case .leave(let id):
            // Only the tracks they publish now end: a rejoin announced meanwhile keeps its routes.
            return members.removeValue(forKey: id)?.ssrcs ?? []
        case .publish(let id, let track):
            return publish(track, for: id)
        case .unpublish(let id, let ssrc):
            guard var member = members[id] else { return [] }
            if member.cameraSSRC == ssrc { member.cameraSSRC = nil }
            if member.shareSSRC == ssrc { member.shareSSRC = nil }
            member.audioSSRCs.remove(ssrc)
            members[id] = member
            return [ssrc]
        case .rename(let id, let name):
            members[id]?.name = name
        case .pin(let id):
            members[id]?.pinnedAt = time
        case .unpin(let id):
            members[id]?.pinnedAt = nil
        case .activeSpeaker:
            break
        }
        return []
    }

    /// The layout engine's view of them, in the order they joined. `isSharing` says whether a
    /// member's share is shown (the composite shows it from its first picture).
    func layoutParticipants(lastSpoke: [String: Double], isSharing: (String) -> Bool) -> [LayoutParticipant] {
        members.sorted { ($0.value.joinedAt, $0.key) < ($1.value.joinedAt, $1.key) }.map { id, member in
            LayoutParticipant(id: id, name: member.name, hasCamera: member.cameraSSRC != nil, isSharingScreen: isSharing(id),
                              pinnedAt: member.pinnedAt, lastSpokeAt: lastSpoke[id], joinedAt: member.joinedAt)
        }
    }

    private mutating func publish(_ track: TrackDescription, for id: String) -> [UInt32] {
        guard var member = members[id] else { return [] }
        var replaced: UInt32?
        switch track.kind {
        case .video:
            if let old = member.cameraSSRC, old != track.ssrc { replaced = old }
            member.cameraSSRC = track.ssrc
        case .share:
            if let old = member.shareSSRC, old != track.ssrc { replaced = old }
            member.shareSSRC = track.ssrc
        case .audio:
            member.audioSSRCs.insert(track.ssrc)
        }
        members[id] = member
        return replaced.map { [$0] } ?? []
    }
}
