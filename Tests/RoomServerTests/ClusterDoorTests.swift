import Cluster
import Foundation
import JobSpec
import Platform
import Postgres
import Capture
import Publisher
import RoomSession
import TestSupport
import Testing

/// Two `revue serve` nodes of one cluster on one database, each on a loopback address of its own
/// (docs/CLUSTER.md): a room placed on node B is reached through node A's doors. Signalling
/// redirects the join (the publishers follow it and see and hear each other through B's SFU),
/// WHIP answers 307 and aiortc posts its offer to B, the join page answers 307, `revue nodes` and
/// `/metrics` show where the room is, and when everyone has left the placement is released.
/// REST actions on the live room, called on node A, are carried out by node B.
extension BrowserRoomTests {
    @Suite(.live, .timeLimit(.minutes(10))) struct ClusterDoorTests {
        static let small = CameraFormat(width: 320, height: 180, framesPerSecond: 15)

        @Test func aRoomOnOneNodeIsReachedThroughTheOthersDoors() throws {
            let a = try RevueServe(arguments: ["--node-id", "node-a"], host: "127.0.0.2")
            let b = try RevueServe(arguments: ["--node-id", "node-b"], host: "127.0.0.3", databaseURL: a.databaseURL)
            let pool = PostgresPool(a.databaseURL, size: 2)
            let nodes = NodeStore(pool: pool)
            #expect(Poll.until(15) { ((try? nodes.nodes()) ?? []).filter(\.alive).map(\.id) == ["node-a", "node-b"] })
            let room = try a.makeRoom()

            // A join the room refuses (its token is for another room) leaves no placement behind.
            let refusedRoom = try a.makeRoom()
            #expect(throws: RoomJoinError.self) {
                try RoomPublisher(configuration: .init(signalingURL: a.signalingURL, roomID: refusedRoom, token: try a.token(roomID: room),
                                                       participantName: "Eve", camera: nil, microphone: nil))
            }
            #expect(Poll.until(10) { (try? RoomPlacer(store: nodes, nodeID: "node-a").location(of: refusedRoom)) == .some(nil) },
                    "the refused join's placement is released")

            // Ann comes in through B: nobody is anywhere, so the door keeps the room.
            var annConfiguration = RoomPublisher.Configuration(
                signalingURL: b.signalingURL, roomID: room, token: try b.token(), participantName: "Ann",
                camera: try TestPatternCamera(name: "Ann", rgb: 0x2080D0, format: Self.small), microphone: ToneMicrophone(frequency: 440))
            annConfiguration.receives = true
            let ann = try RoomPublisher(configuration: annConfiguration)
            defer { ann.leave() }
            #expect(ann.waitUntilPublishing(timeout: 20), "\(ann.failure ?? "")")
            #expect(try RoomPlacer(store: nodes, nodeID: "node-a").location(of: room) == .elsewhere(try #require(try nodes.node("node-b"))))

            // Bob knocks at A: redirected to B, where he and Ann see each other.
            var bobConfiguration = RoomPublisher.Configuration(
                signalingURL: a.signalingURL, roomID: room, token: try a.token(), participantName: "Bob",
                camera: try TestPatternCamera(name: "Bob", rgb: 0xD02020, format: Self.small), microphone: ToneMicrophone(frequency: 660))
            bobConfiguration.receives = true
            let started = Date()
            let bob = try RoomPublisher(configuration: bobConfiguration)
            defer { bob.leave() }
            #expect(bob.waitUntilPublishing(timeout: 20), "\(bob.failure ?? "")")
            let publishingThroughA = Date().timeIntervalSince(started)
            let seen = Poll.until(30) {
                (bob.remoteTrack(participantID: ann.participantID, kind: .video)?.statistics.framesDecoded ?? 0) > 15
                    && (ann.remoteTrack(participantID: bob.participantID, kind: .video)?.statistics.framesDecoded ?? 0) > 15
                    && (bob.remoteTrack(participantID: ann.participantID, kind: .audio)?.statistics.samplesDecoded ?? 0) > 48_000
            }
            print("cluster: Bob publishing through node-a's door (redirected to node-b) \(String(format: "%.2f", publishingThroughA)) s after he began")
            let decoded = "Bob decodes Ann: \(String(describing: bob.remoteTrack(participantID: ann.participantID, kind: .video)?.statistics)), "
                + "\(String(describing: bob.remoteTrack(participantID: ann.participantID, kind: .audio)?.statistics)); Ann decodes Bob: "
                + "\(String(describing: ann.remoteTrack(participantID: bob.participantID, kind: .video)?.statistics))"
            #expect(seen, "\(decoded)")
            #expect(!a.log.contains("\"msg\":\"published\""), "node-a hosts no media of the room")
            #expect(b.log.contains("\"msg\":\"published\""), "node-b's SFU carries the room")

            // WHIP at A: 307 to the same URL on B; aiortc posts its offer there and publishes.
            let whipURL = "\(a.base)/v2/rooms/\(room)/whip?name=Cy"
            let redirect = try TCP.http("POST", whipURL, body: Array("v=0\r\n".utf8),
                                        headers: ["Authorization": "Bearer \(try a.token())", "Content-Type": "application/sdp"])
            #expect(redirect.status == 307 && redirect.headers["location"] == "\(b.base)/v2/rooms/\(room)/whip?name=Cy",
                    "\(redirect.status) \(redirect.headers["location"] ?? "")")
            let logs = try TemporaryDirectory(prefix: "cluster-doors")
            let cy = try Subprocess(try TestPeers.python(), [TestPeers.script("whip_publish.py"), whipURL, try a.token(), "--color", "30A050",
                                                             "--seconds", "60"],
                                    standardOutput: .file(logs.file("whip")), standardError: .file(logs.file("whip")))
            defer {
                cy.signal(SIGTERM)
                if cy.wait(timeout: 10) == nil { cy.signal(SIGKILL); cy.wait() }
            }
            var cyID: String?
            let cySeen = Poll.until(30) {
                cyID = ((try? pool.with { try $0.query("SELECT participant_id FROM session_participants WHERE name = 'Cy'").first?.decode("participant_id", as: String.self) }) ?? nil)
                return cyID.map { (ann.remoteTrack(participantID: $0, kind: .video)?.statistics.framesDecoded ?? 0) > 10 } ?? false
            }
            let whipLog = (try? String(contentsOfFile: logs.file("whip"), encoding: .utf8)) ?? ""
            #expect(cySeen, "Ann decodes aiortc's WHIP video through node-b: \(whipLog.suffix(800))")
            #expect(whipLog.contains("\"event\": \"redirect\"") || whipLog.contains("\"event\":\"redirect\""), "\(whipLog.prefix(400))")

            // The join page at A: 307 to B's page, which is served.
            let page = try TCP.http("GET", "\(a.base)/join/\(room)?name=Dee")
            #expect(page.status == 307 && page.headers["location"] == "\(b.base)/join/\(room)?name=Dee", "\(page.status)")
            #expect(try TCP.http("GET", "\(b.base)/join/\(room)?name=Dee").status == 200)

            // Where the room is, as ops see it.
            let listed = try Subprocess.run(RevueBinary.path, ["nodes", "--database-url", a.databaseURL])
            print("revue nodes:\n" + listed.standardOutput)
            let rows = listed.standardOutput.split(separator: "\n")
            #expect(rows.contains { $0.hasPrefix("node-b ") && $0.contains("ACTIVE") && $0.contains(" 1/1000 ") }, "\(listed.standardOutput)")
            #expect(rows.contains { $0.hasPrefix("node-a ") && $0.contains(" 0/1000 ") })
            let metrics = String(decoding: try TCP.http("GET", a.base + "/metrics").body, as: UTF8.self)
            #expect(metrics.contains("revue_node_rooms_placed{node=\"node-b\",region=\"\"} 1.0"), "\(metrics.suffix(1200))")
            #expect(metrics.contains("revue_node_up{node=\"node-a\",region=\"\"} 1.0"))

            // Everyone leaves: the session ends on B and its placement goes.
            cy.signal(SIGTERM)
            _ = cy.wait(timeout: 10)
            bob.leave()
            ann.leave()
            #expect(Poll.until(15) { (try? RoomPlacer(store: nodes, nodeID: "node-a").location(of: room)) == .some(nil) },
                    "the placement is released")
            // The session's end is written on its own queue, a moment after.
            #expect(Poll.until(10) {
                let ongoing = try? pool.with { try $0.query("SELECT count(*)::int8 AS n FROM sessions WHERE room_id = $1 AND ended_at IS NULL", [room])
                    .first?.decode("n", as: Int.self) }
                return ongoing == 0
            }, "the session on node-b ended")
            let ranOn = try pool.with { try $0.query("SELECT node_id FROM sessions WHERE room_id = $1", [room]).map { try $0.decode("node_id", as: String.self) } }
            #expect(ranOn == ["node-b"], "\(ranOn)")
        }

        /// `POST /v2/sessions/participants/remove` and `/v2/sessions/end` on node A for a room
        /// live on node B: A forwards them to B with the caller's token, B takes the participant
        /// out (1010) and ends the session for everyone (1009), and A answers with B's answers. A
        /// node B that does not answer in time (stopped with SIGSTOP) gets the caller 502 with the
        /// reason; the request it was sent is carried out when it runs again.
        @Test func restActionsOnALiveRoomReachTheNodeHostingIt() throws {
            let a = try RevueServe(arguments: ["--node-id", "node-a"], host: "127.0.0.2")
            let b = try RevueServe(arguments: ["--node-id", "node-b"], host: "127.0.0.3", databaseURL: a.databaseURL)
            let nodes = NodeStore(pool: PostgresPool(a.databaseURL, size: 2))
            #expect(Poll.until(15) { ((try? nodes.nodes()) ?? []).filter(\.alive).count == 2 })
            let room = try a.makeRoom()
            func member(_ name: String) throws -> RoomPublisher {
                try RoomPublisher(configuration: .init(signalingURL: b.signalingURL, roomID: room, token: try b.token(), participantName: name,
                                                       camera: nil, microphone: nil))
            }
            let (ann, bob, cy) = (try member("Ann"), try member("Bob"), try member("Cy"))
            defer { for one in [ann, bob, cy] { one.leave() } }
            #expect(try RoomPlacer(store: nodes, nodeID: "node-a").location(of: room) == .elsewhere(try #require(try nodes.node("node-b"))))

            // Bob is taken out through A.
            let removed = try a.call("POST", "/v2/sessions/participants/remove",
                                     body: Array(#"{"roomId":"\#(room)","participantId":"\#(bob.participantID)"}"#.utf8))
            print("cluster REST: remove through node-a answered \(removed.status) \(removed.json?.text ?? "")")
            #expect(removed.status == 200 && removed.json?.stringValue == "Participant removed successfully", "\(removed)")
            #expect(Poll.until(10) { bob.failure?.contains("1010") == true }, "\(bob.failure ?? "still in")")
            #expect(a.log.contains("forwarded an action to the room's node"))
            // A request that says another node forwarded it, for a room live elsewhere: not acted
            // on here (only the database would change), and not forwarded round again.
            let bounced = try a.call("POST", "/v2/sessions/participants/remove", body: Array(#"{"roomId":"\#(room)","participantId":"\#(cy.participantID)"}"#.utf8),
                                     headers: ["Revue-Forwarded-By": "http://192.0.2.99:8080"])
            #expect(bounced.status == 409 && bounced.json?["error"]?.stringValue == "ROOM_MOVED", "\(bounced)")
            #expect(cy.failure == nil)

            // Node B frozen: A cannot reach it in time and says so. The request waits in B's
            // socket, and B carries it out when it runs again: Cy leaves then.
            b.process.signal(SIGSTOP)
            let frozen = try a.call("POST", "/v2/sessions/participants/remove",
                                    body: Array(#"{"roomId":"\#(room)","participantId":"\#(cy.participantID)"}"#.utf8))
            #expect(cy.failure == nil)
            b.process.signal(SIGCONT)
            print("cluster REST: remove through node-a with node-b frozen answered \(frozen.status) \(frozen.json?["message"]?.stringValue ?? "")")
            #expect(frozen.status == 502 && frozen.json?["error"]?.stringValue == "ROOM_NODE_UNREACHABLE", "\(frozen)")
            #expect(Poll.until(10) { cy.failure?.contains("1010") == true }, "\(cy.failure ?? "still in")")

            // The session ends through A: Ann, on B, leaves with 1009, and A answers with the ended session.
            let ended = try a.call("POST", "/v2/sessions/end", body: Array(#"{"roomId":"\#(room)"}"#.utf8))
            #expect(ended.status == 200 && ended.json?["end"]?.isNull == false, "\(ended)")
            #expect(Poll.until(10) { ann.failure?.contains("1009") == true }, "\(ann.failure ?? "still in")")
            print("cluster REST: end through node-a answered \(ended.status); Ann: \(ann.failure ?? "in")")
        }
    }
}
