/// A message type: a method and a class, interleaved into 14 bits (RFC 8489 §5).
///
/// ```
///  0                 1
///  2  3  4 5 6 7 8 9 0 1 2 3 4 5
/// +--+--+-+-+-+-+-+-+-+-+-+-+-+-+
/// |M |M |M|M|M|C|M|M|M|C|M|M|M|M|
/// |11|10|9|8|7|1|6|5|4|0|3|2|1|0|
/// +--+--+-+-+-+-+-+-+-+-+-+-+-+-+
/// ```
/// So a Binding request is 0x0001, its success response 0x0101 and its error response 0x0111.
public struct STUNMessageType: Hashable, Sendable, CustomStringConvertible {
    /// The operation.
    public var method: STUNMethod
    /// Request, indication or response.
    public var messageClass: STUNMessageClass

    /// A type from its parts.
    public init(method: STUNMethod, messageClass: STUNMessageClass) {
        self.method = method
        self.messageClass = messageClass
    }

    /// The type from the 14 bits after the two zero bits of the header.
    public init(rawValue: UInt16) {
        let value = rawValue & 0x3FFF
        let method = value & 0x000F | (value & 0x00E0) >> 1 | (value & 0x3E00) >> 2
        let classBits = UInt8(truncatingIfNeeded: (value & 0x0010) >> 4 | (value & 0x0100) >> 7)
        // Both conversions cannot fail: the method has 12 bits and the class 2.
        self.method = STUNMethod(rawValue: method) ?? .binding
        messageClass = STUNMessageClass(rawValue: classBits) ?? .request
    }

    /// The 16-bit field as written in the header (its top two bits zero).
    public var rawValue: UInt16 {
        let method = self.method.rawValue
        let classBits = UInt16(messageClass.rawValue)
        return method & 0x000F | (method & 0x0070) << 1 | (method & 0x0F80) << 2
            | (classBits & 0b01) << 4 | (classBits & 0b10) << 7
    }

    /// A Binding request (0x0001): an ICE connectivity or consent check.
    public static let bindingRequest = STUNMessageType(method: .binding, messageClass: .request)
    /// A Binding success response (0x0101).
    public static let bindingSuccess = STUNMessageType(method: .binding, messageClass: .successResponse)
    /// A Binding error response (0x0111).
    public static let bindingError = STUNMessageType(method: .binding, messageClass: .errorResponse)
    /// A Binding indication (0x0011): a keepalive that gets no answer (RFC 8445 §11).
    public static let bindingIndication = STUNMessageType(method: .binding, messageClass: .indication)

    public var description: String { "\(method) \(messageClass)" }
}
