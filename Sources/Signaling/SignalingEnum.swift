/// A closed set of protocol values spelled by their raw value. Reading is lenient about case
/// and about `-` against `_` (`share_and_cam` is `SHARE_AND_CAM`), as the platform's REST API is;
/// writing always uses the raw value.
public protocol SignalingEnum: RawRepresentable<String>, CaseIterable, Sendable, Hashable {}

extension SignalingEnum {
    /// The value spelled `text`, or nil.
    public init?(lenient text: String) {
        func normal(_ value: String) -> String { value.lowercased().replacingOccurrences(of: "-", with: "_") }
        let wanted = normal(text)
        guard let match = Self.allCases.first(where: { normal($0.rawValue) == wanted }) else { return nil }
        self = match
    }

    /// The allowed spellings, for error messages.
    public static var allowedValues: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
