import API
import Foundation
import JobSpec
import Platform
import TestSupport
import Testing

/// WHIP (RFC 9725): aiortc publishes a blue camera and a 1000 Hz tone with a POSTed offer, and a
/// Chromium on the join page decodes it; tokens that are missing or wrong get the platform's
/// errors; DELETE on the session's Location leaves the room.
extension BrowserRoomTests {
    @Suite(.browser, .timeLimit(.minutes(10))) struct WHIPTests {
        @Test func aiortcPublishesThroughWHIPAndChromiumDecodesIt() throws {
            let server = try RoomServerHarness()
            let room = try server.makeRoom()
            let whip = "\(server.base)/v2/rooms/\(room)/whip?name=aiortc%20Blue"

            // Refusals first: no token, a token signed with another secret, one for another room.
            let offer = Array("v=0\r\n".utf8)
            let missing = try TCP.http("POST", whip, body: offer, headers: ["Content-Type": "application/sdp"])
            #expect(missing.status == 401)
            #expect((try? JSONValue(parsing: missing.body))?["code"]?.integerValue == 4025)
            let forged = try Authenticator(apiKey: "room-key", secret: "wrong").token(roles: [.rtc])
            let bad = try TCP.http("POST", whip, body: offer, headers: ["Content-Type": "application/sdp", "Authorization": "Bearer " + forged])
            #expect(bad.status == 401)
            #expect((try? JSONValue(parsing: bad.body))?["code"]?.integerValue == 4002)
            let elsewhere = try TCP.http("POST", whip, body: offer, headers: ["Content-Type": "application/sdp",
                                                                              "Authorization": "Bearer " + (try server.token(roomID: "other-room"))])
            #expect(elsewhere.status == 403)
            #expect((try? JSONValue(parsing: elsewhere.body))?["code"]?.integerValue == 4022)

            let viewerBrowser = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments())
            let viewer = try viewerBrowser.open(server.joinURL(room: room, token: try server.token(), name: "Viewer", mode: "RECV_ONLY"))
            let log = try TemporaryDirectory(prefix: "whip")
            let publisher = try Subprocess(try TestPeers.python(), [TestPeers.script("whip_publish.py"), whip, try server.token(),
                                                                    "--color", "2040D0", "--tone", "1000", "--seconds", "60"],
                                           standardOutput: .file(log.file("out")), standardError: .file(log.file("out")))
            defer {
                publisher.signal(SIGTERM)
                if publisher.wait(timeout: 10) == nil { publisher.signal(SIGKILL) }
            }
            let decoding = try Poll.until(40) {
                let stats = try JoinPageStats.of(viewer)
                return JoinPageStats.inbound(stats, kind: "video", "framesDecoded") > 30
                    && JoinPageStats.inbound(stats, kind: "audio", "totalSamplesReceived") > 48_000
            }
            let output = (try? String(contentsOfFile: log.file("out"), encoding: .utf8)) ?? ""
            let seen = try JoinPageStats.of(viewer)
            #expect(decoding, "the viewer does not decode aiortc: \(seen); aiortc said: \(output.suffix(1500))")
            #expect(output.contains("\"status\": 201"), "\(output.suffix(800))")
            // Its tile is blue and carries the name it published with.
            let tile = try #require(try viewer.evaluate("""
                (() => { const t = document.querySelector('.tile'); if (!t) return null; const r = t.querySelector('video').getBoundingClientRect();
                  return {x: r.x + r.width / 2, y: r.y + r.height / 2, name: t.querySelector('.name').textContent}; })()
                """) as? [String: Any])
            #expect(tile["name"] as? String == "aiortc Blue")
            let pixel = try PNGPixels.pixel(of: try viewer.screenshot(), x: Int(tile["x"] as? Double ?? 0), y: Int(tile["y"] as? Double ?? 0))
            #expect(abs(pixel.0 - 0x20) + abs(pixel.1 - 0x40) + abs(pixel.2 - 0xD0) < 90, "the WHIP tile is \(pixel)")

            // DELETE on its Location: it leaves, and its tile goes.
            publisher.signal(SIGTERM)
            _ = publisher.wait(timeout: 15)
            let final = (try? String(contentsOfFile: log.file("out"), encoding: .utf8)) ?? ""
            #expect(final.contains("\"event\": \"delete\", \"status\": 200"), "\(final.suffix(500))")
            let gone = try Poll.until(10) { try viewer.evaluate("document.querySelectorAll('.tile').length") as? Int == 0 }
            #expect(gone, "the WHIP publisher's tile stayed after DELETE")
        }
    }
}
