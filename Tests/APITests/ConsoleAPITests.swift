import Foundation
import Jobs
import Postgres
import TestSupport
import Testing

/// What the console reads and does beyond the platform's API (docs/CONSOLE.md), over HTTP
/// against a real database: the login, lists across rooms by state and time, a job's timeline
/// with its webhooks, a failing webhook sent again, workers and nodes, and the change feed.
extension APIServiceTests {
    @Test func consoleLoginTakesTheKeyAndSecretOrAnOperatorTokenAndRefusesTheRest() throws {
        defer { server.stop() }
        let wrong = try call("POST", "/v2/console/login", ["apiKey": "k", "apiSecret": "not-it"], token: "")
        #expect(wrong.status == 401 && (wrong.json as? [String: Any])?["code"] as? Int == 4001, "\(String(describing: wrong.json))")
        let wrongKey = try call("POST", "/v2/console/login", ["apiKey": "other", "apiSecret": "s"], token: "")
        #expect(wrongKey.status == 401)
        let missing = try call("POST", "/v2/console/login", ["apiKey": "k"], token: "")
        #expect(missing.status == 400)
        // A participant's token (rtc only) cannot open the console.
        let participant = try call("POST", "/v2/console/login", ["token": try auth.token(roles: [.rtc], roomID: "example")], token: "")
        #expect(participant.status == 403 && (participant.json as? [String: Any])?["code"] as? Int == 4024, "\(String(describing: participant.json))")
        let expired = try call("POST", "/v2/console/login", ["token": try auth.token(expiresIn: -10)], token: "")
        #expect(expired.status == 401 && (expired.json as? [String: Any])?["code"] as? Int == 4002)

        let login = try call("POST", "/v2/console/login", ["apiKey": "k", "apiSecret": "s"], token: "")
        #expect(login.status == 200)
        let answer = try #require(login.json as? [String: Any])
        let token = try #require(answer["token"] as? String)
        let expiresAt = try #require((answer["expiresAt"] as? String).flatMap { ISO8601DateFormatter.withFractions.date(from: $0) })
        #expect(abs(expiresAt.timeIntervalSinceNow - 12 * 3600) < 60)
        #expect(try call("GET", "/v2/workers", token: token).status == 200)
        // An operator token limited to one room logs in to that room only.
        let limited = try call("POST", "/v2/console/login", ["token": try auth.token(roomID: "example")], token: "")
        #expect((limited.json as? [String: Any])?["roomId"] as? String == "example")
        let limitedToken = try #require((limited.json as? [String: Any])?["token"] as? String)
        #expect(try call("GET", "/v2/nodes", token: limitedToken).status == 403)
        // A login never outlives the token it came from.
        let brief = try call("POST", "/v2/console/login", ["token": try auth.token(expiresIn: 300)], token: "")
        let briefExpiry = try #require(((brief.json as? [String: Any])?["expiresAt"] as? String).flatMap { ISO8601DateFormatter.withFractions.date(from: $0) })
        #expect(briefExpiry.timeIntervalSinceNow <= 301 && briefExpiry.timeIntervalSinceNow > 250, "\(briefExpiry)")
    }

    @Test func jobsAreListedAcrossRoomsByStateAndTime() throws {
        defer { server.stop() }
        let started = try call("POST", "/v2/recordings/start", ["roomId": "example"])
        let id = try #require(started.headers["revue-job-id"])
        func ids(_ query: String) throws -> [String] {
            let page = try #require(try call("GET", "/v2/recordings" + query).json as? [String: Any], "\(query)")
            return (page["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }
        #expect(try ids("") == [id], "every room's recordings, without roomId")
        #expect(try ids("?active=true") == [id])
        #expect(try ids("?active=false").isEmpty)
        let today = String(ISO8601DateFormatter.withFractions.string(from: Date()).prefix(10))
        #expect(try ids("?from=\(today)") == [id])
        #expect(try ids("?from=2999-01-01").isEmpty)
        #expect(try ids("?to=2000-01-01T00:00:00Z").isEmpty)
        #expect(try call("GET", "/v2/recordings?from=yesterday").status == 400)
        #expect(try call("GET", "/v2/recordings?active=maybe").status == 400)
        #expect(try call("GET", "/v2/sessions?status=ongoing").status == 200)
        #expect(try call("GET", "/v2/sessions?status=sometimes").status == 400)
    }

    @Test func aJobsTimelineShowsItsStatesAndWebhooksAndAFailingOneIsSentAgain() throws {
        defer { server.stop() }
        // Nothing listens at port 9: the webhook stays undelivered (no dispatcher runs here).
        let started = try call("POST", "/v2/recordings/start", ["roomId": "example", "webhookUrl": "http://127.0.0.1:9/hooks"])
        let id = try #require(started.headers["revue-job-id"])
        let timeline = try #require(try call("GET", "/v2/recordings/\(id)/events").json as? [String: Any])
        let events = timeline["events"] as? [[String: Any]] ?? []
        #expect(events.first?["status"] as? String == "RECORDING_STARTING", "\(events)")
        let webhooks = timeline["webhooks"] as? [[String: Any]] ?? []
        let webhook = try #require(webhooks.first, "\(timeline)")
        #expect(webhook["event"] as? String == "recording-starting" && webhook["status"] as? String == "pending", "\(webhook)")
        let delivery = try #require(webhook["id"] as? String)
        #expect(try call("GET", "/v2/hls/\(id)/events").status == 404, "a recording is not an HLS stream")

        let retried = try call("POST", "/v2/webhooks/\(delivery)/retry")
        #expect(retried.status == 200 && (retried.json as? [String: Any])?["id"] as? String == delivery, "\(String(describing: retried.json))")
        #expect(try call("POST", "/v2/webhooks/\(UUID().uuidString)/retry").status == 404)
        #expect(try call("POST", "/v2/webhooks/not-a-uuid/retry").status == 404)
        // A token limited to another room sees neither, and changes nothing.
        let other = try auth.token(roomID: "room4")
        #expect(try call("GET", "/v2/recordings/\(id)/events", token: other).status == 403)
        let due = { () throws -> Date in
            try self.api.store.pool.with { try $0.query("SELECT next_attempt_at FROM webhook_deliveries WHERE id = $1", [UUID(uuidString: delivery)])[0]
                .decode("next_attempt_at", as: Date.self) }
        }
        try api.store.pool.with { _ = try $0.query("UPDATE webhook_deliveries SET next_attempt_at = now() + interval '1 hour' WHERE id = $1", [UUID(uuidString: delivery)]) }
        #expect(try call("POST", "/v2/webhooks/\(delivery)/retry", token: other).status == 403)
        #expect(try due().timeIntervalSinceNow > 3000, "a refused retry made it due")
        let own = try call("POST", "/v2/webhooks/\(delivery)/retry", token: try auth.token(roomID: "example"))
        #expect(own.status == 200, "\(String(describing: own.json))")
        try api.store.pool.with { connection in
            _ = try connection.query("UPDATE webhook_deliveries SET delivered_at = now() WHERE id = $1", [UUID(uuidString: delivery)])
        }
        #expect(try call("POST", "/v2/webhooks/\(delivery)/retry").status == 409)
        // A room webhook (no job) is its session's room's.
        let sessionDelivery = UUID()
        try api.store.pool.with { connection in
            _ = try connection.query("INSERT INTO sessions (id, room_id, started_at, ended_at) VALUES ('console-session', 'example', now(), now())")
            _ = try connection.query("INSERT INTO webhook_deliveries (id, job_id, session_id, url, event, payload) VALUES ($1, NULL, 'console-session', 'http://127.0.0.1:9/', 'session-started', '{}')",
                                     [sessionDelivery])
        }
        #expect(try call("POST", "/v2/webhooks/\(sessionDelivery.uuidString)/retry", token: other).status == 403)
        #expect(try call("POST", "/v2/webhooks/\(sessionDelivery.uuidString)/retry").status == 200)
    }

    @Test func workersAndNodesAreListed() throws {
        defer { server.stop() }
        let started = try call("POST", "/v2/recordings/start", ["roomId": "example"])
        let text = try #require(started.headers["revue-job-id"])
        let id = try #require(UUID(uuidString: text))
        // A worker claims it as `revue work` would.
        try api.store.pool.with { connection in
            _ = try connection.query("UPDATE jobs SET worker_id = 'w-1', state = 'STARTED', lease_expires_at = now() + interval '30 seconds' WHERE id = $1", [id])
        }
        let workers = try #require(try call("GET", "/v2/workers").json as? [String: Any])
        let worker = try #require((workers["data"] as? [[String: Any]])?.first, "\(workers)")
        #expect(worker["workerId"] as? String == "w-1" && worker["jobs"] as? Int == 1 && (worker["kinds"] as? [String: Int])?["recording"] == 1)
        let nodes = try #require(try call("GET", "/v2/nodes").json as? [String: Any])
        #expect((nodes["data"] as? [Any])?.isEmpty == true, "no node has registered here: \(nodes)")
    }

    @Test func theChangeFeedStreamsAChangeWhenAJobStarts() throws {
        defer { server.stop() }
        let port = try #require(URL(string: base)?.port)
        #expect(try TCP.http("GET", base + "/v2/changes?token=nonsense").status == 401)
        let socket = try TCP.connect(host: "127.0.0.1", port: port, timeout: 10)
        defer { close(socket) }
        let token = try auth.token()
        try TCP.send(socket, Array("GET /v2/changes?token=\(token) HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".utf8))
        var received = ""
        while !received.contains("\r\n\r\n") { received += String(decoding: try TCP.receive(socket), as: UTF8.self) }
        let head = received.lowercased()
        #expect(head.hasPrefix("http/1.1 200") && head.contains("content-type: text/event-stream") && !head.contains("content-length"), "\(received)")
        // The feed takes its first look a second after it opens; a job made after it is a change.
        Thread.sleep(forTimeInterval: 1.5)
        _ = try call("POST", "/v2/recordings/start", ["roomId": "example"])
        let deadline = Date().addingTimeInterval(10)
        while !received.contains("event: change"), Date() < deadline { received += String(decoding: try TCP.receive(socket), as: UTF8.self) }
        #expect(received.contains("event: change") && received.contains("\"jobs\""), "\(received)")
        #expect(received.contains("retry: 2000"))
    }

    @Test func theChangeFeedIsEveryRoomsAndLimitsItsWatchers() throws {
        defer { server.stop() }
        #expect(try TCP.http("GET", base + "/v2/changes?token=\(try auth.token(roomID: "example"))").status == 403, "a room's token sees every room")
        let port = try #require(URL(string: base)?.port)
        let token = try auth.token()
        func open() throws -> (Int32, String) {
            let socket = try TCP.connect(host: "127.0.0.1", port: port, timeout: 10)
            try TCP.send(socket, Array("GET /v2/changes?token=\(token) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            var received = ""
            while !received.contains("\r\n\r\n") { received += String(decoding: try TCP.receive(socket), as: UTF8.self) }
            return (socket, received)
        }
        var sockets: [Int32] = []
        for _ in 0..<8 {
            let (socket, head) = try open()
            sockets.append(socket)
            #expect(head.hasPrefix("HTTP/1.1 200"), "\(head)")
        }
        let (ninth, refused) = try open()
        close(ninth)
        #expect(refused.hasPrefix("HTTP/1.1 503") && refused.contains("TOO_MANY_STREAMS"), "\(refused)")
        // Watchers that hang up are let go within a look or two: their places are free again.
        for socket in sockets { close(socket) }
        let freed = try Poll.until(10) {
            let (socket, head) = try open()
            close(socket)
            return head.hasPrefix("HTTP/1.1 200")
        }
        #expect(freed, "the closed streams kept their places")
    }
}

extension ISO8601DateFormatter {
    static var withFractions: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
