import Foundation
import TestSupport
import Testing

extension HardeningTests {
    /// Finding 9: 256 sockets held every HTTP slot (a thread each), and 300 slowloris clients made
    /// `/healthz` answer 503. Now 1,600 connections from eight addresses, half trickling a head
    /// and half idle, hold no thread, and REST, the join page and signalling are served meanwhile.
    /// One address past its 256 gets 503.
    @Test func slowAndIdleConnectionsLockNobodyOut() throws {
        let server = try RevueServe()
        let room = try LegitimateRoom(server)
        let threadsBefore = server.usage?.threads ?? 0
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        var restTimes: [Double] = []
        var restFailures = 0
        var threadsDuring = 0
        let report = try room.during("finding 9, 1,600 slow or idle HTTP connections from 8 addresses for 12 s") {
            for source in 2...9 {
                for index in 0..<200 {
                    let descriptor = try TCP.connect(host: "127.0.0.1", port: server.port, timeout: 10, from: "127.0.0.\(source)")
                    // Half send a head a few bytes at a time; half one request, then nothing.
                    try TCP.send(descriptor, Array((index % 2 == 0 ? "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: " : "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").utf8))
                    held.append(descriptor)
                }
            }
            let deadline = Date().addingTimeInterval(12)
            while Date() < deadline {
                for (index, descriptor) in held.enumerated() where index % 2 == 0 { try? TCP.send(descriptor, [0x61]) }
                let started = Date()
                if (try? server.call("GET", "/v2/rooms?perPage=1", timeout: 5))?.status == 200 {
                    restTimes.append(Date().timeIntervalSince(started))
                } else {
                    restFailures += 1
                }
                threadsDuring = max(threadsDuring, server.usage?.threads ?? 0)
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
        let sorted = restTimes.sorted()
        print("measured: finding 9, REST during the attack: \(restTimes.count) answered, \(restFailures) failed, median "
            + "\(Int((sorted.isEmpty ? 0 : sorted[sorted.count / 2]) * 1000)) ms, worst \(Int((sorted.last ?? 0) * 1000)) ms; "
            + "server threads \(threadsBefore) before, \(threadsDuring) during")
        #expect(restFailures == 0 && restTimes.count >= 10)
        #expect(threadsDuring - threadsBefore < 10, "connections cost threads")
        #expect(report.alive && report.unanswered == 0 && report.frames > 0)
        // One address past its limit is refused; others are not.
        var crowd: [Int32] = []
        defer { crowd.forEach { close($0) } }
        for _ in 0..<256 { crowd.append(try TCP.connect(host: "127.0.0.1", port: server.port, timeout: 10, from: "127.0.0.10")) }
        Thread.sleep(forTimeInterval: 0.5)
        let extra = try TCP.connect(host: "127.0.0.1", port: server.port, timeout: 10, from: "127.0.0.10")
        defer { close(extra) }
        let refused = String(decoding: (try? TCP.receive(extra)) ?? [], as: UTF8.self)
        print("measured: finding 9, the 257th connection from one address: \(refused.split(separator: "\r\n").first ?? "nothing")")
        #expect(refused.hasPrefix("HTTP/1.1 503"))
        #expect(try server.call("GET", "/healthz").status == 200)
    }

    /// Finding 11: the whole buffer was parsed again, and dechunked again, on every read: a 2 MiB
    /// chunked body cost 20 CPU-seconds. Now one trickled in 4 KiB pieces costs what reading it costs.
    @Test func aTrickledChunkedBodyCostsItsSize() throws {
        let server = try RevueServe()
        let descriptor = try TCP.connect(host: "127.0.0.1", port: server.port, timeout: 30)
        defer { close(descriptor) }
        let head = "POST /v2/rooms HTTP/1.1\r\nHost: x\r\nAuthorization: \(try server.apiToken())\r\nTransfer-Encoding: chunked\r\n\r\n"
        // 340,000 one-byte chunks: "1\r\nX\r\n" each, about 2 MiB of encoding for a JSON array of ones.
        var body = Array("1\r\n[\r\n".utf8)
        for _ in 0..<170_000 { body += Array("1\r\n1\r\n1\r\n,\r\n".utf8) }
        body += Array("1\r\n0\r\n1\r\n]\r\n0\r\n\r\n".utf8)
        let before = try #require(server.usage)
        try TCP.send(descriptor, Array(head.utf8))
        var index = 0
        while index < body.count {
            try TCP.send(descriptor, Array(body[index..<min(body.count, index + 4096)]))
            index += 4096
        }
        let reply = String(decoding: try TCP.receive(descriptor), as: UTF8.self)
        let cost = (server.usage?.cpuSeconds ?? 0) - before.cpuSeconds
        print("measured: finding 11, a \(body.count / 1024) KiB chunked body in 4 KiB writes: "
            + "\(reply.split(separator: "\r\n").first ?? "nothing") in \(String(format: "%.2f", cost)) CPU-seconds")
        #expect(reply.hasPrefix("HTTP/1.1 400"), "a JSON array is not a room: \(reply.prefix(200))")
        #expect(cost < 3, "the old parser took 20 CPU-seconds")
        #expect(server.isAlive())
    }
}
