import Foundation
import Net
import TestSupport
import Testing
import Transport

/// 3% of the publisher's packets dropped and 5% reordered on their way to the server (a UDP proxy
/// in the test): the server NACKs the publisher, the lost packets come again, and the viewer's
/// video never freezes for more than a second.
extension RoomClientLiveSuites {
    @Suite(.browser, .timeLimit(.minutes(10))) struct LossyLinkTests {
        @Test func lossAndReorderingAreRepairedWithoutFreezes() throws {
            let proxy = try LossyUDPProxy(dropPercent: 3, reorderPercent: 5, seed: 5)
            let server = try RoomServerHarness(announcePort: proxy.port)
            proxy.forward(toPort: server.rtcPort)
            proxy.start()
            defer { proxy.stop() }
            let room = try server.makeRoom()
            let media = try TemporaryDirectory(prefix: "fake-media")
            let red = try FakeMedia(colour: "0xD02020", tone: 440, in: media, name: "red")
            let publisherBrowser = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments(video: red.video, audio: red.audio))
            let viewerBrowser = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments())
            let publisher = try publisherBrowser.open(server.joinURL(room: room, token: try server.token(), name: "Lossy"))
            let viewer = try viewerBrowser.open(server.joinURL(room: room, token: try server.token(), name: "Viewer", mode: "RECV_ONLY"))
            _ = try Poll.until(10) { try viewer.evaluate("!!window.revue") as? Bool == true }
            _ = try viewer.evaluate("window.revue.watch()")
            let started = try Poll.until(30) { (try viewer.evaluate("window.revue.frames") as? Int ?? 0) > 30 }
            let seen = try JoinPageStats.of(viewer)
            #expect(started, "the viewer does not decode: \(seen)")
            // Ten seconds through the lossy link.
            _ = try viewer.evaluate("window.revue.longestFreeze = 0")
            Thread.sleep(forTimeInterval: 10)
            let freeze = try #require(try viewer.evaluate("Math.max(window.revue.longestFreeze, window.revue.currentFreeze)") as? Double)
            print("measured: longest freeze \(Int(freeze)) ms; proxy dropped \(proxy.dropped), reordered \(proxy.reordered)")
            #expect(freeze < 1000, "the viewer's video froze for \(freeze) ms")
            #expect(proxy.dropped > 20 && proxy.reordered > 20, "the proxy dropped \(proxy.dropped) and reordered \(proxy.reordered)")
            let outbound = ((try JoinPageStats.of(publisher)["outbound"] as? [[String: Any]]) ?? []).filter { $0["kind"] as? String == "video" }
            let nacks = outbound.map { $0["nackCount"] as? Int ?? 0 }.reduce(0, +)
            let resent = outbound.map { $0["retransmittedPacketsSent"] as? Int ?? 0 }.reduce(0, +)
            print("measured: the publisher got \(nacks) NACKs and resent \(resent) packets")
            #expect(nacks > 0, "the server sent the publisher no NACK")
            #expect(resent > 0, "the publisher resent nothing")
            // The metrics say the same.
            let metrics = String(decoding: try TCP.http("GET", server.base + "/metrics").body, as: UTF8.self)
            func value(_ name: String) -> Double {
                metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") } ?? -1
            }
            #expect(value("revue_sfu_nacks_sent_total") > 0, "\(metrics)")
            #expect(value("revue_sfu_packets_forwarded_total") > 100)
            #expect(value("revue_sfu_plis_sent_total") > 0)
            #expect(value("revue_rtc_connections") >= 3)
            #expect(value("revue_rooms_live") == 1)
        }
    }
}
