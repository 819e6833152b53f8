import Foundation
import JobSpec
import TestSupport
import Testing

/// A room with a publisher, a receive-only viewer and a late joiner: the late joiner gets a
/// keyframe within a second of connecting (the server asks the publisher for one when someone
/// subscribes), and a participant removed through the REST API stops sending to everyone.
extension BrowserRoomTests {
    @Suite(.browser, .timeLimit(.minutes(10))) struct RoomScenarioTests {
        @Test func aLateJoinerGetsAKeyframeAtOnceAndARemovedPublisherStops() throws {
            let server = try RoomServerHarness()
            let room = try server.makeRoom()
            let media = try TemporaryDirectory(prefix: "fake-media")
            let red = try FakeMedia(colour: "0xD02020", tone: 440, in: media, name: "red")
            let publisherBrowser = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments(video: red.video, audio: red.audio))
            let viewers = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments())
            let publisher = try publisherBrowser.open(server.joinURL(room: room, token: try server.token(), name: "Presenter"))
            let viewer = try viewers.open(server.joinURL(room: room, token: try server.token(), name: "Viewer", mode: "RECV_ONLY"))
            let decoding = try Poll.until(30) {
                JoinPageStats.inbound(try JoinPageStats.of(viewer), kind: "video", "framesDecoded") > 30
            }
            let seen = try JoinPageStats.of(viewer)
            #expect(decoding, "the viewer does not decode: \(seen)")
            func publisherPLIs() throws -> Int {
                ((try JoinPageStats.of(publisher)["outbound"] as? [[String: Any]]) ?? [])
                    .filter { $0["kind"] as? String == "video" }.map { $0["pliCount"] as? Int ?? 0 }.reduce(0, +)
            }
            let plisBefore = try publisherPLIs()

            // Well after the publisher's last keyframe, someone joins.
            Thread.sleep(forTimeInterval: 3)
            let late = try viewers.open(server.joinURL(room: room, token: try server.token(), name: "Late", mode: "RECV_ONLY"))
            _ = try Poll.until(10) { try late.evaluate("!!window.revue") as? Bool == true }
            _ = try late.evaluate("window.revue.watch()")
            let firstFrame = try Poll.until(20) { try late.evaluate("window.revue.firstFrameAt !== null") as? Bool == true }
            #expect(firstFrame)
            let delay = try #require(try late.evaluate("window.revue.firstFrameAt - window.revue.subscriberConnectedAt") as? Double)
            print("measured: the late joiner's first frame came \(Int(delay)) ms after its subscriber connection connected")
            #expect(delay < 1000, "the late joiner waited \(delay) ms for its first frame")
            #expect(try publisherPLIs() > plisBefore, "the server did not ask the publisher for a keyframe")

            // The publisher is removed through the REST API: its page is told (1010), and the others
            // stop receiving it.
            let publisherID = try #require(try publisher.evaluate("window.revue.participantId") as? String)
            let removed = try server.call("POST", "/v2/sessions/participants/remove",
                                          .object(["participantId": .string(publisherID), "roomId": .string(room)]))
            #expect(removed.status == 200, "\(removed.json.text)")
            let told = try Poll.until(10) { try publisher.evaluate("window.revue.state") as? String == "DISCONNECTED" }
            #expect(told)
            let tileGone = try Poll.until(10) {
                try viewer.evaluate("document.getElementById('tile-\(publisherID)') === null") as? Bool == true
            }
            #expect(tileGone)
            Thread.sleep(forTimeInterval: 1)
            let framesAfter = JoinPageStats.inbound(try JoinPageStats.of(viewer), kind: "video", "framesDecoded")
            Thread.sleep(forTimeInterval: 2)
            let framesLater = JoinPageStats.inbound(try JoinPageStats.of(viewer), kind: "video", "framesDecoded")
            #expect(framesLater == framesAfter, "the removed publisher's video still arrives")
        }
    }
}
