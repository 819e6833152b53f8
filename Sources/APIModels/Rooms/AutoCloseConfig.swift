import JobSpec
/// A room's `autoCloseConfig`: what happens when its session ends.
public struct AutoCloseConfig: Sendable, Codable, Equatable {
    public enum Kind: String, APIEnum {
        case sessionEnds = "session-ends"
        case sessionEndAndDeactivate = "session-end-and-deactivate"
    }

    public var type: Kind
    /// Minutes a session may last before it is ended (480 by default).
    public var duration: Int

    public init(type: Kind, duration: Int = 480) {
        self.type = type
        self.duration = duration
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(Kind.self, forKey: .type)
        duration = try container.decodeIfPresent(Int.self, forKey: .duration) ?? 480
    }

    static func validated(_ value: JSONValue) throws(SpecError) -> AutoCloseConfig {
        guard value.objectValue != nil else { throw SpecError("autoCloseConfig must be an object {type, duration}") }
        guard let type = value["type"] else { throw SpecError("autoCloseConfig.type is required") }
        var config = AutoCloseConfig(type: try Kind.validated(type, field: "autoCloseConfig.type"))
        if let duration = value["duration"], !duration.isNull {
            guard let minutes = duration.integerValue, (1...100_000).contains(minutes) else {
                throw SpecError("autoCloseConfig.duration must be a whole number of minutes from 1 to 100000")
            }
            config.duration = minutes
        }
        return config
    }
}
