import Foundation
import Media
import Capture
import Publisher
import Signaling
import Synchronization
import TestSupport
import Testing

/// VP8 simulcast on Revue's send path, live through the room server's SFU: a `RoomPublisher`
/// with three layers (h360p_w640p BALANCED: 640x360 at 450 kb/s, 320x180 at 120, 160x90 at 90)
/// sends each at its rate, and a receiving publisher that asks for LOW (`setQuality`) switches
/// from the 640x360 layer to the 160x90 one at a keyframe, with no decode errors. The SFU knows
/// the layers only by the RIDs in the rtp-stream-id extension (the offer names them and no
/// SSRC is tied to a layer there), so the switch shows it learned them.
extension RoomClientLiveSuites {
    @Suite(.live, .timeLimit(.minutes(10))) struct SimulcastPublisherTests {
        @Test func threeLayersAtTheirRatesAndSetQualitySwitchesAtAKeyframe() throws {
            let server = try RoomServerHarness()
            let room = try server.makeRoom()
            let url = "ws://127.0.0.1:\(server.port)/v2/rtc"
            // Detail that fills each layer's rate (a flat test pattern codes in far less).
            let directory = try TemporaryDirectory()
            let clip = directory.file("testsrc2.y4m")
            let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=640x360:r=30", "-t", "2",
                                               "-pix_fmt", "yuv420p", clip])
            try #require(made.status == 0, "\(made.standardError)")
            let layers = [SimulcastEncoding(rid: "q", scaleDown: 4, bitrate: 90_000), SimulcastEncoding(rid: "h", scaleDown: 2, bitrate: 120_000),
                          SimulcastEncoding(rid: "f", scaleDown: 1, bitrate: 450_000)]
            var sending = RoomPublisher.Configuration(signalingURL: url, roomID: room, token: try server.token(), participantName: "Layers",
                                                      camera: try Y4MFileCamera(path: clip), microphone: nil)
            sending.simulcast = layers
            let publisher = try RoomPublisher(configuration: sending)
            defer { publisher.leave() }
            var watching = RoomPublisher.Configuration(signalingURL: url, roomID: room, token: try server.token(), participantName: "Watcher",
                                                       camera: nil, microphone: nil)
            watching.receives = true
            let watcher = try RoomPublisher(configuration: watching)
            defer { watcher.leave() }

            // Each picture's width, with the keyframes received when it was decoded.
            let pictures = Mutex<[(width: Int, keyframes: Int)]>([])
            let track = try #require(watcher.remoteTrack(participantID: publisher.participantID, kind: .video))
            track.setPictureHandler { picture in
                let keyframes = track.statistics.keyframesReceived
                pictures.withLock { $0.append((picture.width, keyframes)) }
            }
            let sent = RoomReceiverTests.waitUntil(20) {
                let stats = publisher.currentStatistics.videoLayers
                return stats.count == 3 && stats.allSatisfy { $0.framesEncoded >= 30 && $0.bytesSent > 0 }
            }
            #expect(sent, "\(publisher.currentStatistics.videoLayers)")
            #expect(publisher.currentStatistics.videoLayers.map { "\($0.rid ?? "-") \($0.width)x\($0.height)" } == ["q 160x90", "h 320x180", "f 640x360"])

            // Each layer's rate over 5 s of media, from the publisher's per-SSRC counters.
            let start = publisher.currentStatistics
            let measured = RoomReceiverTests.waitUntil(20) { publisher.currentStatistics.mediaSeconds - start.mediaSeconds >= 5 }
            #expect(measured)
            let end = publisher.currentStatistics
            let seconds = end.mediaSeconds - start.mediaSeconds
            for (index, layer) in end.videoLayers.enumerated() {
                let kbps = Double(layer.bytesSent - start.videoLayers[index].bytesSent) * 8 / seconds / 1000
                let target = Double(layers[index].bitrate) / 1000
                print("measured: layer \(layer.rid ?? "-") \(layer.width)x\(layer.height) ssrc \(layer.ssrc): \(String(format: "%.1f", kbps)) kb/s "
                    + "over \(String(format: "%.1f", seconds)) s (target \(Int(target)), encoder now \(layer.bitrate / 1000)), "
                    + "\(layer.framesEncoded) frames, \(layer.keyframesEncoded) keyframes")
                #expect(abs(kbps - target) <= target * 0.25, "layer \(layer.rid ?? "-"): \(kbps) kb/s against \(target)")
            }

            // The watcher gets the top layer first (its preference is HIGH) …
            let high = RoomReceiverTests.waitUntil(20) { track.statistics.frameWidth == 640 && track.statistics.framesDecoded >= 10 }
            #expect(high, "\(track.statistics)")
            let before = track.statistics
            // … then asks for LOW.
            watcher.send(.setQuality(participantID: publisher.participantID, quality: .low))
            let low = RoomReceiverTests.waitUntil(20) { track.statistics.frameWidth == 160 && track.statistics.framesDecoded >= before.framesDecoded + 15 }
            let after = track.statistics
            let seen = pictures.withLock { $0 }
            print("measured: receiver before setQuality LOW: \(before.frameWidth)x\(before.frameHeight), \(before.framesDecoded) decoded, "
                + "\(before.keyframesReceived) keyframes; after: \(after.frameWidth)x\(after.frameHeight), \(after.framesDecoded) decoded, "
                + "\(after.keyframesReceived) keyframes, \(after.decodeErrors) decode errors, \(after.packetsLost) lost")
            #expect(low, "\(after)")
            #expect(after.decodeErrors == 0 && before.decodeErrors == 0)
            // The first small picture came with a keyframe received after the request, and once
            // small the pictures stay small.
            let first = try #require(seen.firstIndex { $0.width == 160 && $0.keyframes > before.keyframesReceived })
            #expect(seen[first...].allSatisfy { $0.width == 160 }, "\(seen.map(\.width))")
            #expect(seen[..<first].allSatisfy { $0.width != 160 })
            #expect(publisher.failure == nil && watcher.failure == nil)
        }
    }
}
