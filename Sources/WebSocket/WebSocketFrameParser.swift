/// Splits a byte stream into frames (RFC 6455 §5.2): bytes in, `.needMore`, `.frame` or
/// `.failed` out. It checks everything a single frame can break, as soon as the bytes that show
/// it have arrived (a bad opcode fails on the first byte, an oversized length before its payload
/// is buffered). What spans frames (fragmentation, UTF-8, close payloads) is
/// `WebSocketMessageAssembler`'s.
///
/// Failures carry the close code to send (§7.4.1): 1002 for a protocol violation, 1009 for a
/// frame larger than `maxPayload`. After a failure the parser stays failed.
///
/// Liberal on one point: a length in a longer encoding than needed (126 with a 16-bit 5) is
/// accepted, as browsers do; `WebSocketFrame.serialize` always writes the minimal one.
public struct WebSocketFrameParser: Sendable {
    /// What the next call to `next()` found.
    public enum Result: Sendable, Equatable {
        /// The buffer holds no whole frame yet.
        case needMore
        /// One frame, payload unmasked.
        case frame(WebSocketFrame)
        /// The stream broke the protocol: close with this code and reason (§7.1.7).
        case failed(WebSocketCloseCode, String)
    }

    /// Which end this parser serves: a server requires masked frames, a client unmasked ones.
    public let role: WebSocketRole
    /// The largest payload of one frame; a larger declared length fails with 1009.
    public var maxPayload: Int
    /// RSV bits an agreed extension defines; any other RSV bit fails with 1002 (§5.2).
    public let allowedRSV: UInt8

    private var buffer: [UInt8] = []
    private var start = 0
    private var failure: Result?

    /// A parser for one connection.
    public init(role: WebSocketRole, maxPayload: Int = 1 << 20, allowedRSV: UInt8 = 0) {
        self.role = role
        self.maxPayload = maxPayload
        self.allowedRSV = allowedRSV
    }

    /// Bytes buffered and not yet returned as frames.
    public var bufferedCount: Int { buffer.count - start }

    /// Adds bytes read from the socket.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        guard failure == nil else { return }
        // Drop what was consumed once it is the larger part, so the buffer stays bounded
        // without moving bytes on every frame.
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next frame, if the buffer holds one. Call until `.needMore`.
    public mutating func next() -> Result {
        if let failure { return failure }
        let (result, consumed) = WebSocketFrameParser.parse(buffer, from: start, role: role, maxPayload: maxPayload, allowedRSV: allowedRSV)
        switch result {
        case .needMore:
            break
        case .frame:
            start += consumed
            if start == buffer.count {
                buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
                start = 0
            }
        case .failed:
            failure = result
            buffer = []
            start = 0
        }
        return result
    }

    /// Parses one frame at `offset` in `bytes`: the result, and how many bytes it used (zero
    /// unless a frame came out). Pure, so a caller with its own buffer can use it directly.
    public static func parse(_ bytes: [UInt8], from offset: Int = 0, role: WebSocketRole, maxPayload: Int = 1 << 20,
                             allowedRSV: UInt8 = 0) -> (Result, consumed: Int)
    {
        let available = bytes.count - offset
        guard available >= 1 else { return (.needMore, 0) }
        let first = bytes[offset]
        let fin = first & 0x80 != 0
        let rsv = (first >> 4) & 0x7
        // §5.2: a nonzero RSV bit without an extension that defines it fails the connection.
        if rsv & ~allowedRSV != 0 { return (.failed(.protocolError, "RSV bits \(rsv) set without an extension"), 0) }
        // §5.2: reserved opcodes fail the connection.
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            return (.failed(.protocolError, "reserved opcode \(first & 0x0F)"), 0)
        }
        // §5.5: control frames are never fragmented.
        if opcode.isControl && !fin { return (.failed(.protocolError, "fragmented \(opcode) frame"), 0) }
        guard available >= 2 else { return (.needMore, 0) }
        let second = bytes[offset + 1]
        let masked = second & 0x80 != 0
        // §5.1: a server closes on an unmasked client frame; a client on a masked server frame.
        if masked != role.expectsMaskedFrames {
            return (.failed(.protocolError, masked ? "a masked frame from the server" : "an unmasked frame from the client"), 0)
        }
        let shortLength = Int(second & 0x7F)
        // §5.5: control frames carry at most 125 bytes, so their length is never extended.
        if opcode.isControl && shortLength > 125 {
            return (.failed(.protocolError, "\(opcode) frame longer than 125 bytes"), 0)
        }
        var cursor = offset + 2
        let length: UInt64
        switch shortLength {
        case 126:
            guard available >= 4 else { return (.needMore, 0) }
            length = UInt64(bytes[cursor]) << 8 | UInt64(bytes[cursor + 1])
            cursor += 2
        case 127:
            guard available >= 10 else { return (.needMore, 0) }
            var value: UInt64 = 0
            for index in 0..<8 { value = value << 8 | UInt64(bytes[cursor + index]) }
            // §5.2: the most significant bit of a 64-bit length MUST be 0.
            if value >> 63 != 0 { return (.failed(.protocolError, "64-bit length with its top bit set"), 0) }
            length = value
            cursor += 8
        default:
            length = UInt64(shortLength)
        }
        guard length <= UInt64(maxPayload) else {
            return (.failed(.messageTooBig, "a frame of \(length) bytes, more than the \(maxPayload) accepted"), 0)
        }
        let payloadCount = Int(length)
        let headerEnd = cursor + (masked ? 4 : 0)
        guard bytes.count - headerEnd >= payloadCount else { return (.needMore, 0) }
        var maskingKey: UInt32?
        if masked {
            maskingKey = UInt32(bytes[cursor]) << 24 | UInt32(bytes[cursor + 1]) << 16 | UInt32(bytes[cursor + 2]) << 8
                | UInt32(bytes[cursor + 3])
        }
        var payload = Array(bytes[headerEnd..<(headerEnd + payloadCount)])
        if let maskingKey { WebSocketFrame.applyMask(maskingKey, to: &payload, from: 0) }
        let frame = WebSocketFrame(fin: fin, rsv: rsv, opcode: opcode, maskingKey: maskingKey, payload: payload)
        return (.frame(frame), headerEnd + payloadCount - offset)
    }
}
