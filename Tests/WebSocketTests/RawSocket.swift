import Foundation
import HTTP
import WebSocket

/// A plain TCP client that speaks WebSocket by hand, to send what a well-behaved client never
/// would (unmasked frames, reserved opcodes) and to stay silent (no pongs).
final class RawSocket {
    let connection: HTTPConnection
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            throw TestFailure("cannot connect to port \(port)")
        }
        connection = HTTPConnection(descriptor: descriptor, remoteAddress: "127.0.0.1")
    }

    /// Closes with a reset (SO_LINGER 0), as a peer that crashed or a middlebox would.
    func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(connection.descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        connection.close()
    }

    /// Sends an upgrade request and returns the response head (status and headers).
    func handshake(path: String = "/v2/rtc", version: String = "13", extraHeaders: String = "") throws -> WebSocketHandshake.ResponseHead {
        let key = WebSocketHandshake.newKey()
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: \(version)\r\n\(extraHeaders)\r\n"
        try send(Array(request.utf8))
        let deadline = HTTPConnection.now() + 5
        while true {
            if let (head, consumed) = try WebSocketHandshake.parseResponseHead(buffer) {
                buffer.removeFirst(consumed)
                if head.status == 101 { _ = try WebSocketHandshake.checkResponse(head, key: key) }
                return head
            }
            guard case .data(let bytes) = connection.read(until: deadline) else { throw TestFailure("no handshake answer") }
            buffer += bytes
        }
    }

    func send(_ bytes: [UInt8]) throws {
        guard connection.write(bytes, deadline: HTTPConnection.now() + 5) else { throw TestFailure("write failed") }
    }

    /// The next frame the server sent (unmasked), or nil if it closed the connection first.
    func nextFrame(timeout: Double = 5) throws -> WebSocketFrame? {
        let deadline = HTTPConnection.now() + timeout
        while true {
            let (result, consumed) = WebSocketFrameParser.parse(buffer, role: .client, maxPayload: 1 << 26)
            switch result {
            case .frame(let frame):
                buffer.removeFirst(consumed)
                return frame
            case .failed(let code, let reason):
                throw TestFailure("the server sent a bad frame: \(code) \(reason)")
            case .needMore:
                switch connection.read(until: deadline) {
                case .data(let bytes): buffer += bytes
                case .timedOut: throw TestFailure("no frame within \(timeout) s")
                case .closed, .failed: return nil
                }
            }
        }
    }

    /// Whether the server closed the TCP connection within `timeout`.
    func waitForEOF(timeout: Double = 5) -> Bool {
        let deadline = HTTPConnection.now() + timeout
        while true {
            switch connection.read(until: deadline) {
            case .data: continue
            case .closed, .failed: return true
            case .timedOut: return false
            }
        }
    }
}

/// A test precondition that did not hold.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Bytes from hex, spaces allowed: the RFC's examples are written that way.
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    return stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
}
