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
}

extension E2EEKeys: CustomStringConvertible {
    /// Never the keys themselves: this is what logs print.
    public var description: String {
        "E2EEKeys(shared: \(sharedKey == nil ? "no" : "yes"), participants: \(participantKeys.keys.sorted()))"
    }
}
