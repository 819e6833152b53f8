import Foundation

/// Blocking TCP for test clients.
public enum TCP {
    /// `from` binds the local address first: another loopback address (127.0.0.2) is another
    /// source to a server that counts connections per address.
    public static func connect(host: String, port: Int, timeout: Double, from source: String? = nil) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ToolError("socket failed") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(descriptor)
                throw ToolError("cannot bind \(source): \(String(cString: strerror(errno)))")
            }
        }
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
