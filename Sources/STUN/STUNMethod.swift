/// A STUN method, the 12-bit operation a message is about (RFC 8489 §5, §18.2). ICE uses only
/// Binding; others (TURN's Allocate, for instance) parse and serialise but are not acted on.
public struct STUNMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 12-bit method number.
    public let rawValue: UInt16

    /// A method from its number; nil above 0xFFF, which the type field cannot hold.
    public init?(rawValue: UInt16) {
        guard rawValue <= 0xFFF else { return nil }
        self.rawValue = rawValue
    }

    private init(_ value: UInt16) { rawValue = value }

    /// Binding (0x001), the only method of RFC 8489 and the one ICE checks use.
    public static let binding = STUNMethod(0x001)

    public var description: String {
        self == .binding ? "Binding" : "method 0x" + String(rawValue, radix: 16)
    }
}
