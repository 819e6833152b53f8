import JobSpec

/// A participant and the tracks they publish.
public struct ParticipantDescription: Sendable, Codable, Equatable {
    public var id: String
    /// The name shown on their tile.
    public var name: String
    public var tracks: [TrackDescription]
    /// Their media is end-to-end encrypted (docs/E2EE.md): it is decoded only with their key,
    /// and shown as a placeholder without one.
    public var encrypted: Bool

    public init(id: String, name: String, tracks: [TrackDescription] = [], encrypted: Bool = false) {
        self.id = id
        self.name = name
        self.tracks = tracks
        self.encrypted = encrypted
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, tracks, encrypted
    }

    /// `encrypted` is optional, so what was written before it existed still reads.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try container.decode(String.self, forKey: .id), name: try container.decode(String.self, forKey: .name),
                  tracks: try container.decode([TrackDescription].self, forKey: .tracks),
                  encrypted: try container.decodeIfPresent(Bool.self, forKey: .encrypted) ?? false)
    }

    /// A participant without a camera track has the camera off.
    public var hasCamera: Bool { tracks.contains { $0.kind == .video } }

    /// Reads a participant object (`{"id", "name", "tracks": [...]}`); a missing name is the id.
    public init(validating value: JSONValue, path: String) throws(SpecError) {
        guard value.objectValue != nil else { throw SpecError("\(path): not an object") }
        let id = try TrackDescription.string(value, "id", path)
        guard !id.isEmpty else { throw SpecError("\(path).id: empty") }
        var name = id
        if let given = value["name"], !given.isNull {
            guard let text = given.stringValue else { throw SpecError("\(path).name: not a string") }
            name = text
        }
        guard let list = value["tracks"]?.arrayValue else { throw SpecError("\(path).tracks: missing or not an array") }
        var tracks: [TrackDescription] = []
        for (index, item) in list.enumerated() {
            tracks.append(try TrackDescription(validating: item, path: "\(path).tracks[\(index)]"))
        }
        var encrypted = false
        if let flag = value["e2ee"], !flag.isNull {
            guard let bool = flag.boolValue else { throw SpecError("\(path).e2ee: not a boolean") }
            encrypted = bool
        }
        self.init(id: id, name: name, tracks: tracks, encrypted: encrypted)
    }

    /// The participant as `init(validating:path:)` reads it.
    public var json: JSONValue {
        var fields: [String: JSONValue] = ["id": .string(id), "name": .string(name), "tracks": .array(tracks.map(\.json))]
        if encrypted { fields["e2ee"] = .bool(true) }
        return .object(fields)
    }
}
