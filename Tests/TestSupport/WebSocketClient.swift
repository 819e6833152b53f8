import Foundation

/// A small WebSocket client (RFC 6455) over a blocking socket, enough to drive Chromium's
/// DevTools protocol from tests: text frames out (masked), text frames in, pings answered.
public final class WebSocketClient: @unchecked Sendable {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to `ws://host:port/path` with the opening handshake (§4.1).
    public init(url: String, timeout: Double = 10) throws {
        guard let parsed = URL(string: url), parsed.scheme == "ws", let host = parsed.host, let port = parsed.port else {
            throw ToolError("not a ws:// URL: \(url)")
        }
        descriptor = try TCP.connect(host: host, port: port, timeout: timeout)
        var key = [UInt8](repeating: 0, count: 16)
        for index in key.indices { key[index] = UInt8.random(in: 0...255) }
        let request = "GET \(parsed.path.isEmpty ? "/" : parsed.path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: \(Data(key).base64EncodedString())\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try TCP.send(descriptor, Array(request.utf8))
        // Read the response head.
        while !buffer.containsSubsequence([13, 10, 13, 10]) {
            buffer += try TCP.receive(descriptor)
        }
        guard let end = buffer.firstRange(of: [13, 10, 13, 10]) else { throw ToolError("no handshake") }
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
        buffer.removeSubrange(..<end.upperBound)
        guard head.hasPrefix("HTTP/1.1 101") else { throw ToolError("WebSocket handshake refused: \(head.prefix(200))") }
    }

    deinit { close(descriptor) }

    /// Sends a text message.
    public func send(_ text: String) throws {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try TCP.send(descriptor, frame)
    }

    /// Receives the next text message (continuation frames joined, pings answered).
    public func receive() throws -> String {
        var message: [UInt8] = []
        while true {
            let (fin, opcode, payload) = try readFrame()
            switch opcode {
            case 0x9:
                var pong: [UInt8] = [0x8A, 0x80 | UInt8(min(payload.count, 125))]
                pong += [0, 0, 0, 0] + payload.prefix(125)
                try TCP.send(descriptor, pong)
            case 0x8:
                throw ToolError("the WebSocket was closed")
            case 0x1, 0x0:
                message += payload
                if fin { return String(decoding: message, as: UTF8.self) }
            default:
                continue
            }
        }
    }

    private func readFrame() throws -> (Bool, UInt8, [UInt8]) {
        try fill(2)
        let fin = buffer[0] & 0x80 != 0
        let opcode = buffer[0] & 0x0F
        var length = Int(buffer[1] & 0x7F)
        var offset = 2
        if length == 126 {
            try fill(4)
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            try fill(10)
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        try fill(offset + length)
        let payload = Array(buffer[offset..<(offset + length)])
        buffer.removeFirst(offset + length)
        return (fin, opcode, payload)
    }

    private func fill(_ count: Int) throws {
        while buffer.count < count { buffer += try TCP.receive(descriptor) }
    }
}

/// Blocking TCP for test clients.
public enum TCP {
    public static func connect(host: String, port: Int, timeout: Double) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ToolError("socket failed") }
        var time = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr(host == "localhost" ? "127.0.0.1" : host)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            throw ToolError("cannot connect to \(host):\(port): \(String(cString: strerror(errno)))")
        }
        return descriptor
    }

    public static func send(_ descriptor: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress.map { $0 + sent }, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            guard result > 0 else { throw ToolError("send failed: \(String(cString: strerror(errno)))") }
            sent += result
        }
    }

    public static func receive(_ descriptor: Int32) throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw ToolError(count == 0 ? "connection closed" : "receive failed: \(String(cString: strerror(errno)))") }
        return Array(chunk.prefix(count))
    }

    /// One HTTP/1.1 request with `Connection: close`; returns the status and the body.
    public static func http(_ method: String, _ url: String, body: [UInt8] = [], headers: [String: String] = [:],
                            timeout: Double = 10) throws -> (status: Int, headers: [String: String], body: [UInt8])
    {
        guard let parsed = URL(string: url), let host = parsed.host else { throw ToolError("bad URL \(url)") }
        let port = parsed.port ?? 80
        let descriptor = try connect(host: host, port: port, timeout: timeout)
        defer { close(descriptor) }
        var path = parsed.path.isEmpty ? "/" : parsed.path
        if let query = parsed.query { path += "?" + query }
        var request = "\(method) \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        try send(descriptor, Array(request.utf8) + body)
        var response: [UInt8] = []
        while true {
            guard let chunk = try? receive(descriptor) else { break }
            response += chunk
        }
        guard let split = response.firstRange(of: [13, 10, 13, 10]) else { throw ToolError("no HTTP response from \(url)") }
        let head = String(decoding: response[..<split.lowerBound], as: UTF8.self).split(separator: "\r\n")
        let status = Int(head.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var fields: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var payload = Array(response[split.upperBound...])
        if fields["transfer-encoding"]?.lowercased() == "chunked" { payload = dechunk(payload) }
        return (status, fields, payload)
    }

    static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = bytes[index...].firstRange(of: [13, 10]) else { break }
            let size = Int(String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? "", radix: 16) ?? 0
            if size == 0 { break }
            let start = lineEnd.upperBound
            out += bytes[start..<min(bytes.count, start + size)]
            index = start + size + 2
        }
        return out
    }
}

extension Array where Element == UInt8 {
    func containsSubsequence(_ pattern: [UInt8]) -> Bool { firstRange(of: pattern) != nil }
}
