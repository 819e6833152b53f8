import Foundation
import JobSpec
import MediaSource

/// `manifest.json`: who is in the room at the start, whose each stream in the capture is, and
/// what happens in the room later (docs/FIXTURES.md defines it).
///
/// ```json
/// {"participants": [{"id": "erin", "name": "Erin", "tracks": [{"kind": "video", "ssrc": 7001, ...}]}],
///  "events": [{"at": 3.0, "type": "join", "participant": {"id": "carol", "name": "Carol", "tracks": [...]}},
///             {"at": 5.0, "type": "unpublish", "participantId": "carol", "ssrc": 5551}]}
/// ```
public struct FixtureManifest: Sendable, Equatable {
    public typealias Participant = ParticipantDescription
    public typealias Track = TrackDescription

    /// The event types of `events[].type`.
    public enum EventType: String, Sendable, CaseIterable {
        case join, leave, publish, unpublish, rename, pin, unpin, activeSpeaker
    }

    /// Present from the start.
    public let participants: [Participant]
    /// In time order (events at the same time keep the file's order).
    public let events: [TimedRoomEvent]

    public init(participants: [Participant], events: [TimedRoomEvent] = []) throws(FixtureError) {
        self.participants = participants
        self.events = events.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        do {
            try FixtureManifest.validate(participants: participants, events: self.events.map { ($0, nil) })
        } catch {
            throw FixtureError(.badManifest(error.message))
        }
    }

    /// Every track that appears in the capture: those of the participants at the start, and
    /// those published later by a join or a publish event, with whose each is.
    public var tracks: [(participantID: String, track: Track)] {
        var all = participants.flatMap { participant in participant.tracks.map { (participant.id, $0) } }
        for event in events {
            switch event.event {
            case .join(let participant): all += participant.tracks.map { (participant.id, $0) }
            case .publish(let id, let track): all.append((id, track))
            default: break
            }
        }
        return all
    }

    /// Everyone who is ever in the room, in order of first appearance.
    public var everyone: [String] {
        var ids: [String] = []
        for id in participants.map(\.id) + events.compactMap({ if case .join(let p) = $0.event { p.id } else { nil } })
        where !ids.contains(id) {
            ids.append(id)
        }
        return ids
    }

    /// The name a participant first had (at the start, or when they first joined).
    public func name(of participantID: String) -> String {
        if let participant = participants.first(where: { $0.id == participantID }) { return participant.name }
        for event in events {
            if case .join(let participant) = event.event, participant.id == participantID { return participant.name }
        }
        return participantID
    }

    /// Parses and checks `manifest.json`. Errors name the field: `participants[1].tracks[0].codec`,
    /// `events[2].ssrc`.
    public init(json: [UInt8]) throws(FixtureError) {
        do {
            let root = try JSONValue(parsing: json)
            let (participants, events) = try FixtureManifest.read(root)
            self.participants = participants
            self.events = events.map(\.event)
            try FixtureManifest.validate(participants: participants, events: events.map { ($0.event, $0.index) })
        } catch {
            throw FixtureError(.badManifest(error.message.replacingOccurrences(of: "the body is not valid JSON", with: "not valid JSON")))
        }
    }

    /// The manifest as `init(json:)` reads it: one participant and one event a line, so a
    /// captured manifest reads (and diffs) like a hand-written one.
    public var jsonText: String {
        var text = "{\"participants\": [\n  " + participants.map(\.json.text).joined(separator: ",\n  ") + "]"
        if !events.isEmpty {
            text += ",\n \"events\": [\n  " + events.map { FixtureManifest.json(of: $0).text }.joined(separator: ",\n  ") + "]"
        }
        return text + "}\n"
    }

    /// One event as `readEvent` reads it.
    static func json(of timed: TimedRoomEvent) -> JSONValue {
        var object: [String: JSONValue] = ["at": .number(timed.at)]
        let type: EventType
        switch timed.event {
        case .join(let participant):
            type = .join
            object["participant"] = participant.json
        case .leave: type = .leave
        case .publish(_, let track):
            type = .publish
            object["track"] = track.json
        case .unpublish(_, let ssrc):
            type = .unpublish
            object["ssrc"] = .number(Double(ssrc))
        case .rename(_, let name):
            type = .rename
            object["name"] = .string(name)
        case .pin: type = .pin
        case .unpin: type = .unpin
        case .activeSpeaker: type = .activeSpeaker
        }
        object["type"] = .string(type.rawValue)
        if type != .join { object["participantId"] = .string(timed.event.participantID) }
        return .object(object)
    }

    private static func read(_ root: JSONValue) throws(SpecError) -> ([Participant], [(event: TimedRoomEvent, index: Int)]) {
        guard root.objectValue != nil else { throw SpecError("the top level is not an object") }
        guard let participantList = root["participants"]?.arrayValue else { throw SpecError("participants: missing or not an array") }
        var participants: [Participant] = []
        for (index, item) in participantList.enumerated() {
            participants.append(try Participant(validating: item, path: "participants[\(index)]"))
        }
        var events: [(event: TimedRoomEvent, index: Int)] = []
        if let eventValue = root["events"], !eventValue.isNull {
            guard let eventList = eventValue.arrayValue else { throw SpecError("events: not an array") }
            for (index, item) in eventList.enumerated() {
                events.append((try readEvent(item, path: "events[\(index)]"), index))
            }
        }
        events.sort { ($0.event.at, $0.index) < ($1.event.at, $1.index) }
        return (participants, events)
    }

    private static func readEvent(_ item: JSONValue, path: String) throws(SpecError) -> TimedRoomEvent {
        guard item.objectValue != nil else { throw SpecError("\(path): not an object") }
        guard let at = item["at"]?.numberValue, at.isFinite, at >= 0 else {
            throw SpecError("\(path).at: missing or not a number of seconds ≥ 0")
        }
        guard let typeText = item["type"]?.stringValue else { throw SpecError("\(path).type: missing or not a string") }
        guard let type = EventType(rawValue: typeText) else {
            throw SpecError("\(path).type: unknown event \"\(typeText)\" (expected \(EventType.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        func participantID() throws(SpecError) -> String {
            guard let id = item["participantId"]?.stringValue, !id.isEmpty else {
                throw SpecError("\(path).participantId: missing or not a string")
            }
            return id
        }
        let event: RoomEvent
        switch type {
        case .join:
            guard let participant = item["participant"] else { throw SpecError("\(path).participant: missing") }
            event = .join(try Participant(validating: participant, path: "\(path).participant"))
        case .leave: event = .leave(participantID: try participantID())
        case .publish:
            guard let track = item["track"] else { throw SpecError("\(path).track: missing") }
            event = .publish(participantID: try participantID(), track: try Track(validating: track, path: "\(path).track"))
        case .unpublish:
            guard let ssrc = item["ssrc"]?.integerValue, (0...Int(UInt32.max)).contains(ssrc) else {
                throw SpecError("\(path).ssrc: missing or not a whole number in 0…\(UInt32.max)")
            }
            event = .unpublish(participantID: try participantID(), ssrc: UInt32(ssrc))
        case .rename:
            guard let name = item["name"]?.stringValue else { throw SpecError("\(path).name: missing or not a string") }
            event = .rename(participantID: try participantID(), name: name)
        case .pin: event = .pin(participantID: try participantID())
        case .unpin: event = .unpin(participantID: try participantID())
        case .activeSpeaker: event = .activeSpeaker(participantID: try participantID())
        }
        return TimedRoomEvent(at: at, event: event)
    }

    /// Plays the room forward to check that it makes sense: ids and SSRCs unique while they are
    /// in use, and every event about someone who is in the room then, with a track they publish.
    private static func validate(participants: [Participant], events: [(TimedRoomEvent, Int?)]) throws(SpecError) {
        guard !participants.isEmpty else { throw SpecError("participants: the list is empty") }
        var present: [String: Set<UInt32>] = [:]
        var known = Set<String>()
        var owners: [UInt32: String] = [:]
        func add(_ participant: Participant) throws(SpecError) {
            for track in participant.tracks { try publish(track, by: participant.id) }
        }
        func publish(_ track: Track, by id: String) throws(SpecError) {
            if let owner = owners[track.ssrc] {
                throw SpecError("ssrc \(track.ssrc) appears twice (participants \"\(owner)\" and \"\(id)\")")
            }
            owners[track.ssrc] = id
            present[id, default: []].insert(track.ssrc)
        }
        for participant in participants {
            guard !participant.id.isEmpty else { throw SpecError("a participant has an empty id") }
            guard present[participant.id] == nil else { throw SpecError("participant id \"\(participant.id)\" appears twice") }
            present[participant.id] = []
            known.insert(participant.id)
            try add(participant)
        }
        for (timed, index) in events {
            let place = index.map { "events[\($0)] at \(timed.at) s" } ?? "an event at \(timed.at) s"
            let id = timed.event.participantID
            if case .join(let participant) = timed.event {
                guard present[id] == nil else { throw SpecError("\(place): participant \"\(id)\" joins but is already in the room") }
                present[id] = []
                known.insert(id)
                do {
                    try add(participant)
                } catch {
                    throw SpecError("\(place): \(error.message)")
                }
                continue
            }
            guard known.contains(id) else { throw SpecError("\(place) names unknown participant \"\(id)\"") }
            guard let ssrcs = present[id] else { throw SpecError("\(place): participant \"\(id)\" is not in the room then") }
            switch timed.event {
            case .leave:
                for ssrc in ssrcs { owners[ssrc] = nil }
                present[id] = nil
            case .publish(_, let track):
                do {
                    try publish(track, by: id)
                } catch {
                    throw SpecError("\(place): \(error.message)")
                }
            case .unpublish(_, let ssrc):
                guard ssrcs.contains(ssrc) else { throw SpecError("\(place): participant \"\(id)\" does not publish ssrc \(ssrc)") }
                present[id]?.remove(ssrc)
                owners[ssrc] = nil
            default:
                break
            }
        }
    }
}
