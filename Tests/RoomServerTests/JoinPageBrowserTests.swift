import Foundation
import TestSupport
import Testing

/// Two people in a room, each a headless Chromium on the join page with a different camera
/// colour and tone: each decodes the other's video and audio, and sees the other's colour and name.
extension BrowserRoomTests {
    @Suite(.browser, .timeLimit(.minutes(10))) struct JoinPageBrowserTests {
        @Test func twoBrowsersSeeAndHearEachOther() throws {
            let server = try RoomServerHarness()
            let room = try server.makeRoom()
            let media = try TemporaryDirectory(prefix: "fake-media")
            let red = try FakeMedia(colour: "0xD02020", tone: 440, in: media, name: "red")
            let blue = try FakeMedia(colour: "0x2040D0", tone: 1000, in: media, name: "blue")
            let alice = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments(video: red.video, audio: red.audio))
            let bob = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments(video: blue.video, audio: blue.audio))
            let alicePage = try alice.open(server.joinURL(room: room, token: try server.token(), name: "Alice"))
            let bobPage = try bob.open(server.joinURL(room: room, token: try server.token(), name: "Bob"))

            // Both decode the other's video and audio…
            for (name, page) in [("Alice", alicePage), ("Bob", bobPage)] {
                let decoding = try Poll.until(30) {
                    let stats = try JoinPageStats.of(page)
                    return JoinPageStats.inbound(stats, kind: "video", "framesDecoded") > 10 && JoinPageStats.inbound(stats, kind: "audio", "totalSamplesReceived") > 0
                }
                let seen = try JoinPageStats.of(page)
                let errors = String(describing: try? page.evaluate("JSON.stringify(window.revue.errors)"))
                #expect(decoding, "\(name): \(seen) errors \(errors)")
            }
            // …and keep decoding, for 10 s.
            var first: [(Int, Int)] = []
            for page in [alicePage, bobPage] {
                let stats = try JoinPageStats.of(page)
                first.append((JoinPageStats.inbound(stats, kind: "video", "framesDecoded"), JoinPageStats.inbound(stats, kind: "audio", "totalSamplesReceived")))
            }
            for second in 1...10 {
                Thread.sleep(forTimeInterval: 1)
                for (index, page) in [alicePage, bobPage].enumerated() {
                    let stats = try JoinPageStats.of(page)
                    let now = (JoinPageStats.inbound(stats, kind: "video", "framesDecoded"), JoinPageStats.inbound(stats, kind: "audio", "totalSamplesReceived"))
                    #expect(now.0 > first[index].0 && now.1 > first[index].1, "page \(index) stopped at second \(second): \(stats)")
                    first[index] = now
                }
            }
            // The other's tile shows their colour and their name.
            for (page, colour, name) in [(alicePage, (0x20, 0x40, 0xD0), "Bob"), (bobPage, (0xD0, 0x20, 0x20), "Alice")] {
                let tile = try #require(try page.evaluate("""
                    (() => { const t = document.querySelector('.tile'); if (!t) return null; const r = t.querySelector('video').getBoundingClientRect();
                      return {x: r.x, y: r.y, w: r.width, h: r.height, name: t.querySelector('.name').textContent}; })()
                    """) as? [String: Any])
                #expect(tile["name"] as? String == name)
                let shot = try page.screenshot()
                let x = Int((tile["x"] as? Double ?? 0) + (tile["w"] as? Double ?? 0) * 0.5)
                let y = Int((tile["y"] as? Double ?? 0) + (tile["h"] as? Double ?? 0) * 0.2)
                let pixel = try PNGPixels.pixel(of: shot, x: x, y: y)
                let distance = abs(pixel.0 - colour.0) + abs(pixel.1 - colour.1) + abs(pixel.2 - colour.2)
                #expect(distance < 90, "\(name)'s tile at \(x),\(y) is \(pixel), expected \(colour)")
            }

            // send() over data channels: reliable and unreliable reach the other page with the sender's id.
            let aliceID = try #require(try alicePage.evaluate("window.revue.participantId") as? String)
            let channelsOpen = try Poll.until(15) {
                try alicePage.evaluate("window.revue.send('hello reliable') === null && window.revue.send('hello unreliable', {reliable: false}) === null") as? Bool == true
            }
            #expect(channelsOpen, "the data channels did not open")
            let delivered = try Poll.until(10) {
                let texts = (try bobPage.evaluate("JSON.stringify(window.revue.messages)") as? String) ?? ""
                return texts.contains("hello reliable") && texts.contains("hello unreliable")
            }
            let messages = (try bobPage.evaluate("JSON.stringify(window.revue.messages)") as? String) ?? ""
            #expect(delivered, "Bob got \(messages)")
            #expect(messages.contains("\"from\":\"\(aliceID)\""))
            // 16 KiB is refused with 3072; 15 KiB goes.
            let refused = try bobPage.evaluate("JSON.stringify(window.revue.send('x'.repeat(16 * 1024)))") as? String ?? ""
            #expect(refused.contains("3072"), "\(refused)")
            #expect(try bobPage.evaluate("window.revue.send('y'.repeat(15 * 1024 - 100)) === null") as? Bool == true)
            let large = try Poll.until(10) {
                (try alicePage.evaluate("window.revue.messages.some(m => m.text.length === 15 * 1024 - 100)") as? Bool) == true
            }
            #expect(large, "a 15 KiB message did not arrive")
        }
    }
}
