import Foundation

/// `manifest.json`: whose each stream in the capture is, and the room events
/// (`../shared/fixtures/README.md` defines it).
public struct FixtureManifest: Sendable, Equatable {
    public enum TrackKind: String, Sendable, CaseIterable {
        case video, audio, share

        public var isVideo: Bool { self != .audio }
    }

    public enum Codec: String, Sendable, CaseIterable {
        case vp8 = "VP8"
        case h264 = "H264"
        case opus
    }

    public struct Track: Sendable, Equatable {
        public var kind: TrackKind
        public var ssrc: UInt32
        public var codec: Codec
        public var payloadType: UInt8
        public var clockRate: Int
        public var channels: Int

        public init(kind: TrackKind, ssrc: UInt32, codec: Codec, payloadType: UInt8, clockRate: Int, channels: Int = 1) {
            self.kind = kind
            self.ssrc = ssrc
            self.codec = codec
            self.payloadType = payloadType
            self.clockRate = clockRate
            self.channels = channels
        }
    }

    public struct Participant: Sendable, Equatable {
        public var id: String
        public var name: String
        public var tracks: [Track]

        public init(id: String, name: String, tracks: [Track]) {
            self.id = id
            self.name = name
            self.tracks = tracks
        }

        /// A participant without a camera track has the camera off.
        public var hasCamera: Bool { tracks.contains { $0.kind == .video } }
    }

    public enum EventType: String, Sendable, CaseIterable {
        case pin, unpin, activeSpeaker
    }

    public struct Event: Sendable, Equatable {
        /// Seconds from the first packet of the capture.
        public var at: Double
        public var type: EventType
        public var participantID: String

        public init(at: Double, type: EventType, participantID: String) {
            self.at = at
            self.type = type
            self.participantID = participantID
        }
    }

    public var participants: [Participant]
    public var events: [Event]

    public init(participants: [Participant], events: [Event] = []) throws(FixtureError) {
        self.participants = participants
        self.events = events.sorted { $0.at < $1.at }
        try validate()
    }

    /// Every track of every participant, with the participant it belongs to.
    public var tracks: [(participant: Participant, track: Track)] {
        participants.flatMap { participant in participant.tracks.map { (participant, $0) } }
    }

    /// Parses and checks `manifest.json`. Errors name the field: `participants[1].tracks[0].codec`.
    public init(json: [UInt8]) throws(FixtureError) {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: Data(json))
        } catch {
            throw FixtureError(.badManifest("not valid JSON"))
        }
        guard let object = root as? [String: Any] else { throw FixtureError(.badManifest("the top level is not an object")) }
        guard let participantList = object["participants"] as? [Any] else {
            throw FixtureError(.badManifest("participants: missing or not an array"))
        }
        var participants: [Participant] = []
        for (index, item) in participantList.enumerated() {
            let path = "participants[\(index)]"
            guard let fields = item as? [String: Any] else { throw FixtureError(.badManifest("\(path): not an object")) }
            let id = try Self.string(fields, "id", path)
            let name = (fields["name"] as? String) ?? id
            guard let trackList = fields["tracks"] as? [Any] else {
                throw FixtureError(.badManifest("\(path).tracks: missing or not an array"))
            }
            var tracks: [Track] = []
            for (trackIndex, trackItem) in trackList.enumerated() {
                let trackPath = "\(path).tracks[\(trackIndex)]"
                guard let track = trackItem as? [String: Any] else {
                    throw FixtureError(.badManifest("\(trackPath): not an object"))
                }
                let kindText = try Self.string(track, "kind", trackPath)
                guard let kind = TrackKind(rawValue: kindText) else {
                    throw FixtureError(.badManifest("\(trackPath).kind: unknown kind \"\(kindText)\" (expected video, audio or share)"))
                }
                let codecText = try Self.string(track, "codec", trackPath)
                guard let codec = Codec(rawValue: codecText) else {
                    throw FixtureError(.badManifest("\(trackPath).codec: unknown codec \"\(codecText)\" (expected VP8, H264 or opus)"))
                }
                let ssrc = try Self.integer(track, "ssrc", trackPath, in: 0...Int(UInt32.max))
                let payloadType = try Self.integer(track, "payloadType", trackPath, in: 0...127)
                let clockRate = try Self.integer(track, "clockRate", trackPath, in: 1...1_000_000)
                let channels = track["channels"] == nil ? 1 : try Self.integer(track, "channels", trackPath, in: 1...2)
                tracks.append(Track(kind: kind, ssrc: UInt32(ssrc), codec: codec, payloadType: UInt8(payloadType),
                                    clockRate: clockRate, channels: channels))
            }
            participants.append(Participant(id: id, name: name, tracks: tracks))
        }
        var events: [Event] = []
        if let eventValue = object["events"] {
            guard let eventList = eventValue as? [Any] else { throw FixtureError(.badManifest("events: not an array")) }
            for (index, item) in eventList.enumerated() {
                let path = "events[\(index)]"
                guard let fields = item as? [String: Any] else { throw FixtureError(.badManifest("\(path): not an object")) }
                guard let at = (fields["at"] as? NSNumber)?.doubleValue, at.isFinite, at >= 0 else {
                    throw FixtureError(.badManifest("\(path).at: missing or not a number of seconds ≥ 0"))
                }
                let typeText = try Self.string(fields, "type", path)
                guard let type = EventType(rawValue: typeText) else {
                    throw FixtureError(.badManifest(
                        "\(path).type: unknown event \"\(typeText)\" (expected pin, unpin or activeSpeaker)"))
                }
                events.append(Event(at: at, type: type, participantID: try Self.string(fields, "participantId", path)))
            }
        }
        try self.init(participants: participants, events: events)
    }

    private func validate() throws(FixtureError) {
        guard !participants.isEmpty else { throw FixtureError(.badManifest("participants: the list is empty")) }
        var ids = Set<String>()
        var ssrcs: [UInt32: String] = [:]
        for participant in participants {
            guard !participant.id.isEmpty else { throw FixtureError(.badManifest("a participant has an empty id")) }
            guard ids.insert(participant.id).inserted else {
                throw FixtureError(.badManifest("participant id \"\(participant.id)\" appears twice"))
            }
            for track in participant.tracks {
                if let owner = ssrcs[track.ssrc] {
                    throw FixtureError(.badManifest(
                        "ssrc \(track.ssrc) appears twice (participants \"\(owner)\" and \"\(participant.id)\")"))
                }
                ssrcs[track.ssrc] = participant.id
                guard (track.codec == .opus) == (track.kind == .audio) else {
                    throw FixtureError(.badManifest(
                        "participant \"\(participant.id)\" ssrc \(track.ssrc): codec \(track.codec.rawValue) does not fit kind \(track.kind.rawValue)"))
                }
            }
        }
        for event in events where !ids.contains(event.participantID) {
            throw FixtureError(.badManifest("an event at \(event.at) s names unknown participant \"\(event.participantID)\""))
        }
    }

    private static func string(_ fields: [String: Any], _ key: String, _ path: String) throws(FixtureError) -> String {
        guard let value = fields[key] as? String else {
            throw FixtureError(.badManifest("\(path).\(key): missing or not a string"))
        }
        return value
    }

    private static func integer(_ fields: [String: Any], _ key: String, _ path: String, in range: ClosedRange<Int>)
        throws(FixtureError) -> Int
    {
        // JSON true/false also cast to NSNumber; their Objective-C type is "c" (char).
        guard let number = fields[key] as? NSNumber, String(cString: number.objCType) != "c" else {
            throw FixtureError(.badManifest("\(path).\(key): missing or not a number"))
        }
        let value = number.doubleValue
        guard value.rounded() == value, value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            throw FixtureError(.badManifest("\(path).\(key): \(number) is not a whole number in \(range.lowerBound)…\(range.upperBound)"))
        }
        return Int(value)
    }
}
