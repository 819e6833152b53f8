import Foundation
import TestSupport
import WebSocket

/// A WebSocket client on a plain socket, from a chosen loopback address, that sends what it is
/// told and reads only when asked: the hostile peer `WebSocketClient` will not be (it always
/// completes its frames and reads its replies).
final class RawWebSocket {
    let descriptor: Int32

    /// Connects from `source` and upgrades to `/v2/rtc`; throws when the server does not answer 101.
    init(_ server: RevueServe, from source: String) throws {
        descriptor = try TCP.connect(host: "127.0.0.1", port: server.port, timeout: 10, from: source)
        let key = WebSocketHandshake.newKey()
        let request = "GET /v2/rtc HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try TCP.send(descriptor, Array(request.utf8))
        var head: [UInt8] = []
        while head.firstRange(of: [13, 10, 13, 10]) == nil {
            guard let chunk = try? TCP.receive(descriptor) else { break }
            head += chunk
        }
        guard String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 101"), let end = head.firstRange(of: [13, 10, 13, 10]) else {
            close(descriptor)
            throw ToolError("no upgrade: \(String(decoding: head.prefix(200), as: UTF8.self))")
        }
        // A close sent at once may have come with the 101.
        received = Array(head[end.upperBound...])
    }

    deinit { close(descriptor) }

    /// A whole text message, masked as a client must.
    func send(text: String) throws {
        try TCP.send(descriptor, WebSocketFrame(opcode: .text, maskingKey: 0x1234_5678, payload: Array(text.utf8)).serialize())
    }

    /// The first `sent` bytes of a text frame whose header claims `claimed` bytes: a message the
    /// server must hold until the rest comes.
    func sendUnfinished(claimed: Int, sent: Int) throws {
        try TCP.send(descriptor, RawWebSocket.unfinished(claimed: claimed, sent: sent))
    }

    static func unfinished(claimed: Int, sent: Int) -> [UInt8] {
        let frame = WebSocketFrame(opcode: .text, maskingKey: 0x1234_5678, payload: [UInt8](repeating: 0x61, count: sent)).serialize()
        // The header of the claimed length, then the masked bytes sent (masking runs on from 0).
        var header = WebSocketFrame(opcode: .text, maskingKey: 0x1234_5678, payload: [UInt8](repeating: 0, count: claimed)).serialize()
        header.removeLast(claimed)
        return header + frame.suffix(sent)
    }

    /// What the server has sent so far.
    private var received: [UInt8] = []

    /// The close code the server sent, if it sent a close frame before `timeout`.
    func closeCode(within timeout: Double) -> UInt16? {
        var bytes = received
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let wait = Int32(max(0, min(100, deadline.timeIntervalSinceNow * 1000)))
            guard poll(&ready, 1, wait) >= 0 else { return nil }
            if ready.revents == 0 { continue }
            guard let chunk = try? TCP.receive(descriptor) else { break }
            bytes += chunk
        }
        received = bytes
        // A close frame from the server: 0x88, a length, then the code.
        var index = 0
        while index + 2 <= bytes.count {
            let opcode = bytes[index] & 0x0F
            var length = Int(bytes[index + 1] & 0x7F)
            var header = 2
            if length == 126, index + 4 <= bytes.count {
                length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
                header = 4
            }
            if opcode == 0x8, length >= 2, index + header + 2 <= bytes.count {
                return UInt16(bytes[index + header]) << 8 | UInt16(bytes[index + header + 1])
            }
            index += header + length
        }
        return nil
    }
}
