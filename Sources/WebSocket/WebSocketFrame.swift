/// One WebSocket frame (RFC 6455 §5.2), with its payload unmasked.
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-------+-+-------------+-------------------------------+
/// |F|R|R|R| opcode|M| Payload len |    Extended payload length    |
/// |I|S|S|S|  (4)  |A|     (7)     |             (16/64)           |
/// |N|V|V|V|       |S|             |   (if payload len==126/127)   |
/// | |1|2|3|       |K|             |                               |
/// +-+-+-+-+-------+-+-------------+ - - - - - - - - - - - - - - - +
/// |     Extended payload length continued, if payload len == 127  |
/// + - - - - - - - - - - - - - - - +-------------------------------+
/// |                               |Masking-key, if MASK set to 1  |
/// +-------------------------------+-------------------------------+
/// | Masking-key (continued)       |          Payload Data         |
/// +-------------------------------- - - - - - - - - - - - - - - - +
/// :                     Payload Data continued ...                :
/// + - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - +
/// |                     Payload Data continued ...                |
/// +---------------------------------------------------------------+
/// ```
///
/// Serialisation is strict: the shortest length encoding always (§5.2 "the minimal number of
/// bytes MUST be used"). Parsing (`WebSocketFrameParser`) is liberal about that one rule only.
public struct WebSocketFrame: Sendable, Equatable {
    /// Whether this is the last fragment of its message (always true for control frames).
    public var fin: Bool
    /// RSV1–RSV3 as the low three bits; zero unless an extension defines them (§5.2).
    public var rsv: UInt8
    /// What the payload is.
    public var opcode: WebSocketOpcode
    /// The 32-bit masking key, first wire byte most significant; nil for an unmasked frame. A
    /// client masks every frame (§5.3), a server none.
    public var maskingKey: UInt32?
    /// The application data, unmasked.
    public var payload: [UInt8]

    /// A frame from its parts.
    public init(fin: Bool = true, rsv: UInt8 = 0, opcode: WebSocketOpcode, maskingKey: UInt32? = nil, payload: [UInt8] = []) {
        self.fin = fin
        self.rsv = rsv
        self.opcode = opcode
        self.maskingKey = maskingKey
        self.payload = payload
    }

    /// The header's length for a payload of `count` bytes: 2, 4 or 10, plus 4 with a mask.
    public static func headerSize(payloadCount count: Int, masked: Bool) -> Int {
        (count < 126 ? 2 : count <= 0xFFFF ? 4 : 10) + (masked ? 4 : 0)
    }

    /// How many bytes `serialize` writes.
    public var serializedSize: Int { WebSocketFrame.headerSize(payloadCount: payload.count, masked: maskingKey != nil) + payload.count }

    /// The frame on the wire, payload masked with `maskingKey` if there is one.
    public func serialize() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(serializedSize)
        serialize(into: &bytes)
        return bytes
    }

    /// Appends the frame to `bytes`, so several frames can share one buffer (one write).
    public func serialize(into bytes: inout [UInt8]) {
        bytes.append((fin ? 0x80 : 0) | (rsv & 0x7) << 4 | opcode.rawValue)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        let count = payload.count
        if count < 126 {
            bytes.append(maskBit | UInt8(count))
        } else if count <= 0xFFFF {
            bytes.append(maskBit | 126)
            bytes.append(UInt8(count >> 8))
            bytes.append(UInt8(count & 0xFF))
        } else {
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: UInt64(count) >> UInt64(shift))) }
        }
        guard let maskingKey else {
            bytes.append(contentsOf: payload)
            return
        }
        let key = [UInt8(maskingKey >> 24), UInt8((maskingKey >> 16) & 0xFF), UInt8((maskingKey >> 8) & 0xFF), UInt8(maskingKey & 0xFF)]
        bytes.append(contentsOf: key)
        let start = bytes.count
        bytes.append(contentsOf: payload)
        WebSocketFrame.applyMask(maskingKey, to: &bytes, from: start)
    }

    /// XORs `bytes[start...]` with the masking key (§5.3); masking and unmasking are the same.
    static func applyMask(_ maskingKey: UInt32, to bytes: inout [UInt8], from start: Int) {
        let key = (UInt8(maskingKey >> 24), UInt8((maskingKey >> 16) & 0xFF), UInt8((maskingKey >> 8) & 0xFF), UInt8(maskingKey & 0xFF))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var index = start
            let end = buffer.count
            while index + 4 <= end {
                buffer[index] ^= key.0
                buffer[index + 1] ^= key.1
                buffer[index + 2] ^= key.2
                buffer[index + 3] ^= key.3
                index += 4
            }
            var keyIndex = 0
            while index < end {
                buffer[index] ^= keyIndex == 0 ? key.0 : keyIndex == 1 ? key.1 : key.2
                keyIndex += 1
                index += 1
            }
        }
    }
}
