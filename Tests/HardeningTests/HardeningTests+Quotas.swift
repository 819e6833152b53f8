import Foundation
import JobSpec
import TestSupport
import Testing
import WebSocket

extension HardeningTests {
    /// Finding 7: a board kept 10,000 strokes of 1,000 points in memory (about 700 MB) and each GET
    /// built the whole board's JSON (one peaked at 1.64 GB). Now a board holds 8 MiB of strokes,
    /// kept as the JSON they are served as, and a GET sends at most 512 KiB.
    @Test func aFullWhiteboardCostsMegabytesNotGigabytes() throws {
        let server = try RevueServe()
        let room = try LegitimateRoom(server)
        let mallory = try Attacks.joined(server, room: room.room, name: "Mallory")
        try mallory.send(text: #"{"v":1,"type":"startWhiteboard","id":"w"}"#)
        let started = try #require(Attacks.frame(on: mallory, within: 10) { $0["type"]?.stringValue == "whiteboardStarted" })
        let board = try #require(started["path"]?.stringValue?.split(separator: "/").last.map(String.init))
        let strokes = server.base + "/v2/whiteboards/\(room.room)/\(board)/strokes"
        let token = try server.token()
        var random = SeededGenerator(seed: 7)
        let points = (0..<1_000).map { _ in "[0.\(random.next() % 1_000_000_000_000),0.\(random.next() % 1_000_000_000_000)]" }.joined(separator: ",")
        let stroke = Array("{\"colour\":\"#a0b0c0\",\"width\":3,\"points\":[\(points)]}".utf8)
        var stored = 0, full: Int?
        var pages = 0, largestPage = 0
        let report = try room.during("finding 7, strokes of 1,000 points until the board is full, then the whole board read 10 times", settle: 12) {
            while full == nil && stored < 20_000 {
                let answer = try TCP.http("POST", strokes, body: stroke, headers: ["Authorization": token], timeout: 30)
                if answer.status == 201 { stored += 1 } else { full = answer.status }
            }
            for _ in 0..<10 {
                var since = 0, more = true
                while more {
                    let page = try TCP.http("GET", strokes + "?since=\(since)", headers: ["Authorization": token], timeout: 30)
                    let body = try JSONValue(parsing: page.body)
                    largestPage = max(largestPage, page.body.count)
                    since = body["next"]?.integerValue ?? since
                    more = body["more"]?.boolValue ?? false
                    pages += 1
                }
            }
        }
        print("measured: finding 7, \(stored) strokes of 1,000 points stored before \(full.map(String.init) ?? "none"); the board read in \(pages / 10) "
            + "pages, the largest \(largestPage / 1024) KiB")
        #expect(full == 409 && stored > 100)
        #expect(largestPage <= 520 * 1024 && pages / 10 > 1)
        #expect(report.alive && report.unanswered == 0 && report.frames > 0)
        #expect(report.peakResidentMiB - report.before.residentMiB < 64, "a board cost \(report.peakResidentMiB - report.before.residentMiB) MiB")
    }

    /// Finding 8: any admitted participant started, stopped and pointed jobs anywhere: a guest could
    /// stream the room to an RTMP server of their choosing or make the server POST to any URL.
    /// Now jobs from inside a room need allow_mod, and what a participant names must be on the
    /// operator's list (this server has none).
    @Test func guestsStartNoJobsAndNobodyPointsThemAnywhere() throws {
        let server = try RevueServe()
        let legitimate = try LegitimateRoom(server)
        let room = legitimate.room
        let guest = try Attacks.joined(server, room: room, name: "Guest")
        let moderator = try Attacks.joined(server, room: room, name: "Moderator", permissions: [.allowJoin, .allowMod])
        var answers: [String] = []
        let report = try legitimate.during("finding 8, a guest's and a moderator's jobs pointed at addresses the operator did not allow") {
        for (socket, message) in [(guest, #"{"v":1,"type":"startLivestream","id":"a","outputs":[{"url":"rtmp://203.0.113.9/live","streamKey":"k"}]}"#),
                                  (guest, #"{"v":1,"type":"stopRecording","id":"a"}"#),
                                  (moderator, #"{"v":1,"type":"startRecording","id":"a","webhookUrl":"http://169.254.169.254/latest/meta-data"}"#),
                                  (moderator, #"{"v":1,"type":"startLivestream","id":"a","outputs":[{"url":"rtmp://203.0.113.9/live","streamKey":"k"}]}"#)]
        {
            try socket.send(text: message)
            let answer = Attacks.answer(on: socket, to: "a", within: 10)
            answers.append("\(answer?["code"]?.integerValue ?? 0) \(answer?["message"]?.stringValue ?? "")")
        }
        }
        print("measured: finding 8, answers: \(answers)")
        #expect(report.alive && report.unanswered == 0)
        #expect(answers[0].hasPrefix("4013 ") && answers[0].contains("allow_mod"))
        #expect(answers[1].hasPrefix("4012 ") && answers[1].contains("allow_mod"))
        #expect(answers[2].hasPrefix("4011 ") && answers[2].contains("--allow-destination"))
        #expect(answers[3].hasPrefix("4013 ") && answers[3].contains("--allow-destination"))
        let jobs = try server.call("GET", "/v2/recordings?roomId=\(room)").json?["data"]?.arrayValue?.count ?? -1
        #expect(jobs == 0, "no job was made")
    }

    /// Finding 13: a livestream of 10,000 outputs made a job of 10,001 threads and 920 MB. Now
    /// eight at most, refused at the door.
    @Test func aLivestreamHasAtMostEightOutputs() throws {
        let server = try RevueServe()
        let legitimate = try LegitimateRoom(server)
        let outputs = (0..<10_000).map { JSONValue.object(["url": .string("rtmp://127.0.0.1:1/live/\($0)")]) }
        let body = JSONValue.object(["roomId": .string(legitimate.room), "outputs": .array(outputs)])
        var answer: (status: Int, json: JSONValue?) = (0, nil)
        let report = try legitimate.during("finding 13, a livestream of 10,000 outputs asked for 10 times") {
            for _ in 0..<10 { answer = try server.call("POST", "/v2/livestreams/start", body: Array(body.text.utf8)) }
        }
        print("measured: finding 13, 10,000 outputs: \(answer.status) \(answer.json?["message"]?.stringValue ?? "")")
        #expect(report.alive && report.unanswered == 0 && report.after.threads - report.before.threads < 10)
        #expect(answer.status == 400 && answer.json?["code"]?.integerValue == 4015)
        #expect(answer.json?["message"]?.stringValue?.contains("at most 8") == true)
    }

    /// Finding 14: any rtc token filled PostgreSQL with day-long files for any room. Now files go
    /// only into a room in session, 64 MiB and 500 files a room, 1 GiB in all.
    @Test func roomFilesHaveAQuota() throws {
        let server = try RevueServe()
        let room = try LegitimateRoom(server)
        let idle = try server.makeRoom()
        let token = try server.token()
        let megabyte = [UInt8](repeating: 0x61, count: 1 << 20)
        let notLive = try TCP.http("POST", server.base + "/v2/files/\(idle)?name=a.bin", body: megabyte, headers: ["Authorization": token], timeout: 30)
        var stored = 0, refused: (Int, String)?
        let report = try room.during("finding 14, 1 MiB files into one room until its quota") {
            while refused == nil && stored < 200 {
                let answer = try TCP.http("POST", server.base + "/v2/files/\(room.room)?name=f\(stored).bin", body: megabyte,
                                          headers: ["Authorization": token], timeout: 30)
                if answer.status == 201 { stored += 1 } else { refused = (answer.status, String(decoding: answer.body, as: UTF8.self)) }
            }
        }
        print("measured: finding 14, a room not in session: \(notLive.status); \(stored) files of 1 MiB stored, then \(refused.map { "\($0.0) \($0.1)" } ?? "none")")
        #expect(notLive.status == 404)
        #expect(stored == 64 && refused?.0 == 413 && refused?.1.contains("3074") == true)
        #expect(report.alive && report.unanswered == 0)
    }

    /// Finding 15: the lower ones. U+0000 anywhere in JSON is refused at the door; a NUL in a path
    /// never reaches a file name; a token limited to one room cannot create rooms or learn which
    /// others exist; pages say nosniff and send no referrer, take the token out of the address
    /// bar, and show names as text.
    @Test func theLowerFindings() throws {
        let server = try RevueServe()
        let legitimate = try LegitimateRoom(server)
        let room = legitimate.room
        let other = try server.makeRoom()
        let limited = try server.apiToken(roomID: room)
        var nul: (status: Int, json: JSONValue?) = (0, nil)
        var path = 0
        var answers: [Int] = []
        let report = try legitimate.during("finding 15, NUL in JSON and in a path, a room-limited token probing and creating rooms") {
            nul = try server.call("POST", "/v2/rooms", body: Array(#"{"customRoomId":"a\u0000b"}"#.utf8))
            path = try TCP.http("GET", server.base + "/files/recordings/a%00b.mp4").status
            answers = [try server.call("POST", "/v2/rooms", body: Array("{}".utf8), token: limited).status,
                       try server.call("GET", "/v2/rooms/\(other)", token: limited).status,
                       try server.call("GET", "/v2/rooms/no-such-room", token: limited).status,
                       try server.call("GET", "/v2/rooms/validate/\(other)", token: limited).status,
                       try server.call("GET", "/v2/rooms/\(room)", token: limited).status]
        }
        #expect(report.alive && report.unanswered == 0)
        #expect(nul.status == 400 && nul.json?["message"]?.stringValue?.contains("U+0000") == true)
        #expect(path == 400)
        print("measured: finding 15, a room-limited token: create \(answers[0]), another room \(answers[1]), no such room \(answers[2]), "
            + "validate another \(answers[3]), its own \(answers[4])")
        #expect(answers == [403, 403, 403, 403, 200])

        let name = "<img src=x onerror=window.pwned=1>"
        let joinURL = "\(server.base)/join/\(room)?token=\(try server.token())&name=\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
        let page = try TCP.http("GET", joinURL)
        #expect(page.headers["x-content-type-options"] == "nosniff" && page.headers["referrer-policy"] == "no-referrer", "\(page.headers)")
        // A participant with that name joins; the page shows it as text and runs nothing.
        let mallory = try Attacks.joined(server, room: room, name: name)
        defer { _ = mallory.close() }
        let browser = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments())
        let viewer = try browser.open("\(server.base)/join/\(room)?token=\(try server.token())&name=Viewer&mode=RECV_ONLY")
        var shown: String?
        let deadline = Date().addingTimeInterval(20)
        while shown == nil && Date() < deadline {
            shown = try viewer.evaluate("(() => [...document.querySelectorAll('.tile .name')].map(e => e.textContent).find(n => n.startsWith('<img')) || null)()") as? String
            if shown == nil { Thread.sleep(forTimeInterval: 0.2) }
        }
        let pwned = try viewer.evaluate("window.pwned === undefined && document.querySelectorAll('.tile img').length === 0") as? Bool
        let address = try viewer.evaluate("location.href") as? String ?? ""
        print("measured: finding 15, the join page shows \(shown ?? "nothing") as text (script ran: \(pwned == false)); its address: \(address.replacingOccurrences(of: server.base, with: ""))")
        #expect(shown == name && pwned == true)
        #expect(!address.contains("token="), "\(address)")
    }
}
