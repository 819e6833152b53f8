import JobSpec

/// A participant and the tracks they publish.
public struct ParticipantDescription: Sendable, Codable, Equatable {
    public var id: String
    /// The name shown on their tile.
    public var name: String
    public var tracks: [TrackDescription]

    public init(id: String, name: String, tracks: [TrackDescription] = []) {
        self.id = id
        self.name = name
        self.tracks = tracks
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
        self.init(id: id, name: name, tracks: tracks)
    }

    /// The participant as `init(validating:path:)` reads it.
    public var json: JSONValue {
        .object(["id": .string(id), "name": .string(name), "tracks": .array(tracks.map(\.json))])
    }
}
