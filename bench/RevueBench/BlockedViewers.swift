import Foundation
import HLS

/// Viewers of one live low-latency playlist, each always waiting in a blocking reload: the
/// moment one is answered it asks for the part after the newest in its answer, as hls.js does.
/// Raw keep-alive sockets on one thread with poll(2), so the viewers cost the benchmark little.
final class BlockedViewers {
    private struct Viewer {
        var descriptor: Int32
        var buffer: [UInt8] = []
    }

    struct Outcome {
        var answered = 0
        var failed = 0
        /// The most viewers whose request was outstanding at one look (every 50 ms at most).
        var heldMost = 0
    }

    /// `path` is the playlist's path on `port` (a signed `/files/…/live.m3u8`); `first` the part
    /// to ask for first.
    static func run(count: Int, port: Int, path: String, first: HLSMediaPlaylist.PartPosition, seconds: Double) throws -> Outcome {
        var viewers: [Viewer] = []
        defer { viewers.forEach { close($0.descriptor) } }
        for _ in 0..<count {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard descriptor >= 0, connected == 0 else { throw BenchError("viewer could not connect: \(String(cString: strerror(errno)))") }
            viewers.append(Viewer(descriptor: descriptor))
            ask(descriptor, path: path, part: first)
        }
        var outcome = Outcome()
        let deadline = Date().addingTimeInterval(seconds)
        var polled = viewers.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while Date() < deadline {
            let ready = poll(&polled, nfds_t(polled.count), 50)
            outcome.heldMost = max(outcome.heldMost, count - max(0, Int(ready)))
            guard ready > 0 else { continue }
            for index in polled.indices where polled[index].revents != 0 {
                polled[index].revents = 0
                let received = recv(viewers[index].descriptor, &chunk, chunk.count, 0)
                guard received > 0 else {
                    outcome.failed += 1
                    polled[index].fd = -1
                    continue
                }
                viewers[index].buffer += chunk[..<received]
                guard let (status, body, used) = response(in: viewers[index].buffer) else { continue }
                viewers[index].buffer.removeFirst(used)
                guard status == 200, let last = HLSMediaPlaylist(text: String(decoding: body, as: UTF8.self)).lastPart else {
                    outcome.failed += 1
                    ask(viewers[index].descriptor, path: path, part: first)
                    continue
                }
                outcome.answered += 1
                ask(viewers[index].descriptor, path: path, part: .init(sequence: last.sequence, index: last.index + 1))
            }
        }
        return outcome
    }

    private static func ask(_ descriptor: Int32, path: String, part: HLSMediaPlaylist.PartPosition) {
        let request = Array("GET \(path)?_HLS_msn=\(part.sequence)&_HLS_part=\(part.index) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// A whole response at the start of `bytes`: its status, body and length.
    private static func response(in bytes: [UInt8]) -> (Int, ArraySlice<UInt8>, Int)? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0...max(0, bytes.count - 4)).first(where: { bytes.count >= 4 && Array(bytes[$0..<$0 + 4]) == separator }) else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") } ?? 0
        guard bytes.count >= end + 4 + length else { return nil }
        return (status, bytes[(end + 4)..<(end + 4 + length)], end + 4 + length)
    }
}
