/// Turns frames into messages (RFC 6455 §5.4, §6.2): joins fragments, lets control frames through
/// from the middle of a fragmented message, and checks what spans frames.
///
/// - A continuation with no message begun, or a new text/binary frame before the last one
///   finished: 1002 (§5.4).
/// - A message longer than `maxMessageSize`: 1009, as soon as the fragments pass it.
/// - A text message that is not UTF-8, checked over the whole reassembled message so a character
///   may span fragments: 1007 (§8.1).
/// - A close body that is malformed: 1002 or 1007 (§5.5.1, §7.4).
public struct WebSocketMessageAssembler: Sendable {
    /// What one frame produced.
    public enum Output: Sendable, Equatable {
        /// A fragment was kept; the message is not complete yet.
        case incomplete
        /// A whole message.
        case message(WebSocketMessage)
        /// A ping with its payload, to be answered by a pong (§5.5.2).
        case ping([UInt8])
        /// A pong with its payload.
        case pong([UInt8])
        /// The peer started or answered the closing handshake.
        case close(WebSocketClose)
        /// The frame broke the protocol: close with this code and reason.
        case failed(WebSocketCloseCode, String)
    }

    /// The largest message, all fragments together.
    public var maxMessageSize: Int

    private var fragmentOpcode: WebSocketOpcode?
    private var fragments: [UInt8] = []

    /// An assembler for one connection.
    public init(maxMessageSize: Int = 1 << 20) {
        self.maxMessageSize = maxMessageSize
    }

    /// Whether a fragmented message has begun and not finished.
    public var inMessage: Bool { fragmentOpcode != nil }

    /// Takes the next frame off the connection.
    public mutating func receive(_ frame: WebSocketFrame) -> Output {
        switch frame.opcode {
        case .ping:
            return .ping(frame.payload)
        case .pong:
            return .pong(frame.payload)
        case .close:
            do throws(WebSocketProtocolViolation) {
                return .close(try WebSocketClose(parsing: frame.payload))
            } catch {
                return .failed(error.code, error.reason)
            }
        case .text, .binary:
            if fragmentOpcode != nil { return .failed(.protocolError, "a new \(frame.opcode) message inside a fragmented one") }
            guard frame.payload.count <= maxMessageSize else { return tooBig(frame.payload.count) }
            if frame.fin { return finish(frame.opcode, frame.payload) }
            fragmentOpcode = frame.opcode
            fragments = frame.payload
            return .incomplete
        case .continuation:
            guard let opcode = fragmentOpcode else { return .failed(.protocolError, "a continuation frame with no message begun") }
            guard fragments.count + frame.payload.count <= maxMessageSize else { return tooBig(fragments.count + frame.payload.count) }
            fragments += frame.payload
            guard frame.fin else { return .incomplete }
            let payload = fragments
            fragmentOpcode = nil
            fragments = []
            return finish(opcode, payload)
        }
    }

    private func finish(_ opcode: WebSocketOpcode, _ payload: [UInt8]) -> Output {
        guard opcode == .text else { return .message(.binary(payload)) }
        guard let text = String(validating: payload, as: UTF8.self) else {
            return .failed(.invalidPayload, "a text message that is not UTF-8")
        }
        return .message(.text(text))
    }

    private mutating func tooBig(_ count: Int) -> Output {
        fragmentOpcode = nil
        fragments = []
        return .failed(.messageTooBig, "a message of at least \(count) bytes, more than the \(maxMessageSize) accepted")
    }
}
