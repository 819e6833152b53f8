/// A closed set of values with the platform API's spelling as the raw value, read leniently:
/// case does not matter, and `_` and `-` are the same, because the REST API spells
/// `video-and-audio` and `med` where the SDK spells `VIDEO_AND_AUDIO` and `MED`.
public protocol APIEnum: RawRepresentable<String>, CaseIterable, Codable, Sendable, Hashable {}

extension APIEnum {
    /// The value whose API or SDK spelling is `text`, or nil.
    public init?(apiValue text: String) {
        func normal(_ value: String) -> String { value.lowercased().replacingOccurrences(of: "_", with: "-") }
        let wanted = normal(text)
        guard let match = Self.allCases.first(where: { normal($0.rawValue) == wanted }) else { return nil }
        self = match
    }

    /// The allowed spellings, for error messages and `--help`.
    public static var allowedValues: [String] { allCases.map(\.rawValue) }

    /// Reads the value of `field` from a JSON value, or throws naming the field and the values.
    public static func validated(_ value: JSONValue, field: String) throws(SpecError) -> Self {
        guard let text = value.stringValue, let match = Self(apiValue: text) else {
            throw SpecError("\(field) must be one of \(allowedValues.joined(separator: ", "))")
        }
        return match
    }
}
