/// End-to-end encryption keys, as the SDK's key provider holds them (seed 001,
/// `setKeyProvider`): a shared key encrypts the whole room; without one, a participant given a
/// key with `setParticipantKey` encrypts its media with it. Keys are used as given (their UTF-8
/// bytes are the SFrame base key, docs/E2EE.md).
public struct E2EEKeys: Sendable, Equatable, Codable {
    public var sharedKey: String?
    public var participantKeys: [String: String]

    public init(sharedKey: String? = nil, participantKeys: [String: String] = [:]) {
        self.sharedKey = sharedKey
        self.participantKeys = participantKeys
    }

    /// The key a participant's media is encrypted with: participant keys are not used while a
    /// shared key is set.
    public func key(for participantID: String) -> String? {
        sharedKey ?? participantKeys[participantID]
    }

    /// Whether nothing is set.
    public var isEmpty: Bool { sharedKey == nil && participantKeys.isEmpty }

    /// Reads `{"sharedKey": "…", "participantKeys": {"id": "…"}}` from a request; errors name the field.
    public init(validating value: JSONValue, field: String) throws(SpecError) {
        guard value.objectValue != nil else { throw SpecError("\(field) must be an object") }
        self.init()
        if let shared = value["sharedKey"], !shared.isNull {
            guard let key = shared.stringValue, !key.isEmpty else { throw SpecError("\(field).sharedKey must be a non-empty string") }
            sharedKey = key
        }
        if let keys = value["participantKeys"], !keys.isNull {
            guard let object = keys.objectValue else { throw SpecError("\(field).participantKeys must be an object of participant ids to keys") }
            for (id, key) in object {
                guard let text = key.stringValue, !text.isEmpty else {
                    throw SpecError("\(field).participantKeys.\(id) must be a non-empty string")
                }
                participantKeys[id] = text
            }
        }
        guard !isEmpty else { throw SpecError("\(field) needs a sharedKey or participantKeys") }
    }

    /// The same participants with every key replaced, for logs and events.
    public var redacted: E2EEKeys {
        E2EEKeys(sharedKey: sharedKey.map { _ in "redacted" }, participantKeys: participantKeys.mapValues { _ in "redacted" })
    }
}

extension E2EEKeys: CustomStringConvertible {
    /// Never the keys themselves: this is what logs print.
    public var description: String {
        "E2EEKeys(shared: \(sharedKey == nil ? "no" : "yes"), participants: \(participantKeys.keys.sorted()))"
    }
}
