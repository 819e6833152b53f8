import Foundation
import Capture
import Publisher
import TestSupport
import Testing

/// Revue's own send path against a real browser: two `RoomPublisher`s in a room (one a test
/// pattern and a tone in H.264, one playing a y4m and a wav in VP8), and a headless Chromium on the join page as
/// a viewer. Chromium decodes both publishers' video and audio and shows each in its colour under
/// its name; the publishers saw the SFU's keyframe requests and sent their reports.
extension RoomClientLiveSuites {
    @Suite(.browser, .timeLimit(.minutes(10))) struct RoomPublisherTests {
        static func publisher(_ server: RoomServerHarness, room: String, name: String, camera: any CameraSource,
                              microphone: any MicrophoneSource, videoCodec: PublishedVideoCodec = .vp8) throws -> RoomPublisher
        {
            try RoomPublisher(configuration: .init(signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc", roomID: room, token: try server.token(),
                                                   participantName: name, camera: camera, microphone: microphone, videoCodec: videoCodec))
        }

        @Test func chromiumDecodesTwoRoomPublishers() throws {
            let server = try RoomServerHarness()
            let room = try server.makeRoom()
            let media = try TemporaryDirectory(prefix: "publisher-media")
            let blue = try FakeMedia(colour: "0x2040D0", tone: 1000, in: media, name: "blue")
            // One sends H.264 (issue 12), the other VP8: Chromium decodes both.
            let red = try Self.publisher(server, room: room, name: "Pattern Red", camera: try TestPatternCamera(name: "Pattern Red", rgb: 0xD02020),
                                         microphone: ToneMicrophone(frequency: 440), videoCodec: .h264)
            defer { red.leave() }
            let files = try Self.publisher(server, room: room, name: "Files Blue", camera: try Y4MFileCamera(path: blue.video),
                                           microphone: try WAVFileMicrophone(path: blue.audio))
            defer { files.leave() }
            #expect(red.waitUntilPublishing(timeout: 15), "\(red.failure ?? "") \(red.currentStatistics)")
            #expect(files.waitUntilPublishing(timeout: 15), "\(files.failure ?? "") \(files.currentStatistics)")

            let chromium = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments())
            let page = try chromium.open(server.joinURL(room: room, token: try server.token(), name: "Viewer", mode: "RECV_ONLY"))
            func tracks(_ kind: String, _ field: String) throws -> [Int] {
                ((try JoinPageStats.of(page)["inbound"] as? [[String: Any]]) ?? []).filter { $0["kind"] as? String == kind }
                    .map { $0[field] as? Int ?? 0 }
            }
            let decoding = try Poll.until(40) {
                let video = try tracks("video", "framesDecoded"), audio = try tracks("audio", "totalSamplesReceived")
                return video.count == 2 && video.allSatisfy { $0 > 30 } && audio.count == 2 && audio.allSatisfy { $0 > 0 }
            }
            let stats = try JoinPageStats.of(page)
            #expect(decoding, "\(stats) errors \(String(describing: try? page.evaluate("JSON.stringify(window.revue.errors)")))")
            // And it keeps decoding both, at about the publishers' 30 fps.
            let before = try tracks("video", "framesDecoded")
            Thread.sleep(forTimeInterval: 4)
            let after = try tracks("video", "framesDecoded")
            let rates = zip(after, before).map { Double($0 - $1) / 4 }
            print("measured: Chromium framesDecoded \(after) (\(rates.map { String(format: "%.1f", $0) }.joined(separator: ", ")) fps over 4 s)")
            #expect(rates.count == 2 && rates.allSatisfy { $0 > 20 }, "\(rates)")
            print("measured: Chromium freezeCount \(try tracks("video", "freezeCount"))")

            // Each tile shows its publisher's colour under its name.
            let tiles = try #require(try page.evaluate("""
                JSON.stringify([...document.querySelectorAll('.tile')].map(t => { const r = t.querySelector('video').getBoundingClientRect();
                  return {x: r.x, y: r.y, w: r.width, h: r.height, name: t.querySelector('.name').textContent, off: t.classList.contains('camera-off')}; }))
                """) as? String)
            let placed = try #require(try JSONSerialization.jsonObject(with: Data(tiles.utf8)) as? [[String: Any]])
            #expect(Set(placed.compactMap { $0["name"] as? String }) == ["Pattern Red", "Files Blue"], "\(placed)")
            #expect(placed.allSatisfy { $0["off"] as? Bool == false }, "a tile shows its camera as off: \(placed)")
            let shot = try page.screenshot()
            for tile in placed {
                let colour = tile["name"] as? String == "Pattern Red" ? (0xD0, 0x20, 0x20) : (0x20, 0x40, 0xD0)
                let x = Int((tile["x"] as? Double ?? 0) + (tile["w"] as? Double ?? 0) * 0.5)
                let y = Int((tile["y"] as? Double ?? 0) + (tile["h"] as? Double ?? 0) * 0.2)
                let pixel = try PNGPixels.pixel(of: shot, x: x, y: y)
                let distance = abs(pixel.0 - colour.0) + abs(pixel.1 - colour.1) + abs(pixel.2 - colour.2)
                #expect(distance < 90, "\(tile["name"] ?? "")'s tile at \(x),\(y) is \(pixel), expected \(colour)")
            }

            // The SFU asked each publisher for a keyframe when the viewer subscribed, and they
            // sent sender reports on both streams.
            for publisher in [red, files] {
                let statistics = publisher.currentStatistics
                print("measured: \(publisher.configuration.participantName): \(statistics.videoFramesEncoded) frames "
                    + "(\(statistics.keyframesEncoded) keyframes, \(statistics.videoFramesSkipped) skipped), "
                    + "\(statistics.sender.packetsSent) packets, \(statistics.sender.senderReportsSent) SRs, "
                    + "\(statistics.sender.pliReceived) PLI + \(statistics.sender.firReceived) FIR, "
                    + String(format: "connected in %.0f ms", (statistics.secondsToConnect ?? 0) * 1000))
                #expect(statistics.sender.pliReceived + statistics.sender.firReceived >= 1)
                #expect(statistics.keyframesEncoded >= 2)
                #expect(statistics.sender.senderReportsSent >= 4)
                #expect(publisher.failure == nil)
            }
        }
    }
}
