import Foundation
import JobSpec
import Net
import STUN
import TestSupport
import WebSocket

/// What the hostile clients of these tests send: made by hand, as an attacker would, not with
/// Revue's own client code.
enum Attacks {
    /// A WHIP offer of `sections` audio sections (Opus, sendonly), with its own ICE credentials
    /// and a made-up fingerprint: enough to be answered, never to connect.
    static func offer(sections: Int = 1) -> String {
        let ufrag = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let fingerprint = (0..<32).map { _ in String(format: "%02X", UInt8.random(in: 0...255)) }.joined(separator: ":")
        var text = "v=0\r\no=- \(UInt32.random(in: 1...UInt32.max)) 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n"
        text += "a=group:BUNDLE " + (0..<sections).map(String.init).joined(separator: " ") + "\r\n"
        for mid in 0..<sections {
            text += "m=audio 9 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP4 0.0.0.0\r\na=ice-ufrag:\(ufrag)\r\na=ice-pwd:hostilepasswordof24chars\r\n"
                + "a=fingerprint:sha-256 \(fingerprint)\r\na=setup:actpass\r\na=mid:\(mid)\r\na=sendonly\r\na=rtcp-mux\r\n"
                + "a=rtpmap:111 opus/48000/2\r\na=ssrc:\(1000 + mid) cname:hostile\r\n"
        }
        return text
    }

    /// POSTs a WHIP offer; the status, the `Location` and the body.
    static func whip(_ server: RevueServe, room: String, token: String, offer: String, timeout: Double = 60) throws
        -> (status: Int, location: String?, body: String)
    {
        let response = try TCP.http("POST", server.base + "/v2/rooms/\(room)/whip?name=hostile", body: Array(offer.utf8),
                                    headers: ["Content-Type": "application/sdp", "Authorization": "Bearer " + token], timeout: timeout)
        let location = response.headers.first { $0.key.lowercased() == "location" }?.value
        return (response.status, location, String(decoding: response.body, as: UTF8.self))
    }

    /// The server's `a=ice-ufrag` in an answer.
    static func serverUfrag(in answer: String) -> String? {
        answer.split(whereSeparator: \.isNewline).first { $0.hasPrefix("a=ice-ufrag:") }.map { String($0.dropFirst("a=ice-ufrag:".count)) }
    }

    /// Sends Binding requests that name a real connection (`serverUfrag:clientUfrag`) but carry a
    /// MESSAGE-INTEGRITY made with the wrong password, as fast as one thread can, for `seconds`.
    /// Each costs the server an HMAC to find wrong. Returns how many were sent.
    static func stunFlood(port: UInt16, username: String, seconds: Double) -> Int {
        let messages = (0..<256).map { _ in
            (try? STUNMessage(type: .bindingRequest, transactionID: .random(), attributes: [.username(username), .priority(1), .iceControlling(9)])
                .marshal(integrityKey: Array("not the password at all".utf8), fingerprint: true)) ?? []
        }
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let deadline = Date().addingTimeInterval(seconds)
        var sent = 0
        while Date() < deadline {
            for message in messages {
                let result = message.withUnsafeBytes { bytes in
                    withUnsafePointer(to: &address) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            sendto(descriptor, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                        }
                    }
                }
                if result > 0 { sent += 1 }
            }
        }
        return sent
    }

    /// A signalling connection that has not joined anything: what anyone can open without a token.
    static func signalling(_ server: RevueServe) throws -> WebSocketClient {
        try WebSocketClient(url: server.signalingURL)
    }

    /// A signalling connection joined to `room` (SEND_AND_RECV, publishing nothing).
    static func joined(_ server: RevueServe, room: String, name: String, permissions: [TokenClaims.Permission] = [.allowJoin]) throws -> WebSocketClient {
        let socket = try signalling(server)
        let join = JSONValue.object(["v": .number(1), "type": .string("join"), "id": .string("join"), "token": .string(try server.token(permissions: permissions)),
                                     "roomId": .string(room), "name": .string(name)])
        try socket.send(text: join.text)
        guard answer(on: socket, to: "join", within: 10)?["type"]?.stringValue == "joined" else { throw ToolError("\(name) could not join") }
        return socket
    }

    /// The first frame on `socket` within `seconds` that `matches`.
    static func frame(on socket: WebSocketClient, within seconds: Double, where matches: (JSONValue) -> Bool) -> JSONValue? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            guard case .text(let text) = try? socket.receive(timeout: max(0.01, deadline.timeIntervalSinceNow)) else { return nil }
            if let value = try? JSONValue(parsing: Array(text.utf8)), matches(value) { return value }
        }
        return nil
    }

    /// Matches an `error` frame with `code`.
    static func isError(_ code: Int) -> (JSONValue) -> Bool {
        { $0["type"]?.stringValue == "error" && $0["code"]?.integerValue == code }
    }

    /// Runs `body(0..<count)` on a thread each and returns when all have.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                body(index)
                group.leave()
            }.start()
        }
        group.wait()
    }

    /// The next frame answering request `id` on `socket`, within `seconds`.
    static func answer(on socket: WebSocketClient, to id: String, within seconds: Double) -> JSONValue? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            guard case .text(let text) = try? socket.receive(timeout: max(0.01, deadline.timeIntervalSinceNow)) else { return nil }
            if let value = try? JSONValue(parsing: Array(text.utf8)), value["id"]?.stringValue == id { return value }
        }
        return nil
    }
}
