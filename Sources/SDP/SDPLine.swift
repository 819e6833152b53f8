/// A line Revue does not interpret (`i=`, `u=`, `e=`, `p=`, `b=`, `z=`, `k=`, `r=`, a second `t=`
/// or an unknown type), kept so that serialising loses nothing (RFC 8866 §5).
public struct SDPLine: Sendable, Equatable {
    /// The line's type letter, the character before `=`.
    public var type: Character
    /// Everything after `=`.
    public var value: String

    /// A line.
    public init(type: Character, value: String) {
        self.type = type
        self.value = value
    }
}
