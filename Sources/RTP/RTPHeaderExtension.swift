/// The RTP header extension block (RFC 3550 §5.3.1) and its general mechanism (RFC 8285).
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |      defined by profile       |           length              |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                        header extension                       |
/// ```
/// Profile 0xBEDE is the one-byte form (RFC 8285 §4.2): each element is `ID(4) | L(4)` and L+1
/// bytes of data; ID 0 is a padding byte and ID 15 ends parsing. Profiles 0x1000–0x100F are the
/// two-byte form (§4.3): `ID(8) | L(8)` and L bytes. Any other profile is kept as raw bytes.
public enum RTPHeaderExtension: Sendable, Equatable {
    public struct Element: Sendable, Equatable {
        public var id: UInt8
        public var data: [UInt8]

        public init(id: UInt8, data: [UInt8]) {
            self.id = id
            self.data = data
        }
    }

    case oneByte([Element])
    /// `appBits` are the low four bits of the 0x100X profile.
    case twoByte(appBits: UInt8, [Element])
    case other(profile: UInt16, data: [UInt8])

    public static let oneByteProfile: UInt16 = 0xBEDE

    /// The data of the element with `id`, if present.
    public func element(_ id: UInt8) -> [UInt8]? {
        switch self {
        case .oneByte(let elements), .twoByte(_, let elements): elements.first { $0.id == id }?.data
        case .other: nil
        }
    }

    /// Reads the block whose 4-byte header starts at the reader's position.
    static func parse(_ reader: inout ByteReader) throws(RTPParseError) -> RTPHeaderExtension {
        let profile = try reader.uint16("extension profile")
        let words = Int(try reader.uint16("extension length"))
        let data = try reader.bytes(words * 4, "extension data")
        if profile == oneByteProfile {
            var elements: [Element] = []
            var index = 0
            while index < data.count {
                let id = data[index] >> 4
                let length = Int(data[index] & 0x0F) + 1
                if id == 0 { // padding byte (RFC 8285 §4.2); its length nibble must be 0
                    index += 1
                    continue
                }
                if id == 15 { break } // reserved: stop parsing
                guard index + 1 + length <= data.count else {
                    throw .truncated("one-byte extension element", needed: length, available: data.count - index - 1)
                }
                elements.append(Element(id: id, data: Array(data[index + 1..<index + 1 + length])))
                index += 1 + length
            }
            return .oneByte(elements)
        }
        if profile & 0xFFF0 == 0x1000 {
            var elements: [Element] = []
            var index = 0
            while index < data.count {
                let id = data[index]
                if id == 0 { // padding
                    index += 1
                    continue
                }
                guard index + 1 < data.count else { throw .truncated("two-byte extension length", needed: 1, available: 0) }
                let length = Int(data[index + 1])
                guard index + 2 + length <= data.count else {
                    throw .truncated("two-byte extension element", needed: length, available: data.count - index - 2)
                }
                elements.append(Element(id: id, data: Array(data[index + 2..<index + 2 + length])))
                index += 2 + length
            }
            return .twoByte(appBits: UInt8(profile & 0x0F), elements)
        }
        return .other(profile: profile, data: data)
    }

    /// Bytes this block takes on the wire, header included, padded to 32 bits.
    var marshalSize: Int {
        4 + bodySize.roundedUp(toMultipleOf: 4)
    }

    private var bodySize: Int {
        switch self {
        case .oneByte(let elements): elements.reduce(0) { $0 + 1 + $1.data.count }
        case .twoByte(_, let elements): elements.reduce(0) { $0 + 2 + $1.data.count }
        case .other(_, let data): data.count
        }
    }

    /// Checks that each element fits its form, so marshalling cannot produce garbage.
    func validate() throws(RTPParseError) {
        switch self {
        case .oneByte(let elements):
            for element in elements where !(1...14).contains(element.id) || !(1...16).contains(element.data.count) {
                throw .invalid("one-byte extension element id \(element.id) with \(element.data.count) bytes")
            }
        case .twoByte(let appBits, let elements):
            guard appBits < 16 else { throw .invalid("two-byte extension app bits \(appBits)") }
            for element in elements where element.id == 0 || element.data.count > 255 {
                throw .invalid("two-byte extension element id \(element.id) with \(element.data.count) bytes")
            }
        case .other(_, let data):
            guard data.count % 4 == 0 else { throw .invalid("extension data of \(data.count) bytes is not 32-bit aligned") }
        }
    }

    func marshal(into writer: inout ByteWriter) {
        let padded = bodySize.roundedUp(toMultipleOf: 4)
        let words = UInt16(padded / 4)
        switch self {
        case .oneByte(let elements):
            writer.uint16(RTPHeaderExtension.oneByteProfile)
            writer.uint16(words)
            for element in elements {
                writer.uint8(element.id << 4 | UInt8(element.data.count - 1))
                writer.append(element.data)
            }
        case .twoByte(let appBits, let elements):
            writer.uint16(0x1000 | UInt16(appBits))
            writer.uint16(words)
            for element in elements {
                writer.uint8(element.id)
                writer.uint8(UInt8(element.data.count))
                writer.append(element.data)
            }
        case .other(let profile, let data):
            writer.uint16(profile)
            writer.uint16(words)
            writer.append(data)
        }
        for _ in bodySize..<padded { writer.uint8(0) }
    }
}

extension Int {
    func roundedUp(toMultipleOf step: Int) -> Int {
        (self + step - 1) / step * step
    }
}
