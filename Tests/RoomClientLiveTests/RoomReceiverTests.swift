import Foundation
import JobSpec
import Capture
import Publisher
import RoomReceiver
import Synchronization
import TestSupport
import Testing

/// Revue's receive path against Revue's send path, through the room server's SFU: a
/// `RoomPublisher` that receives (`Configuration.receives`, as the SDK sets it) decodes one
/// publisher's H.264 and another's VP8, and both tones, and counts them per participant and
/// kind. It asked for a keyframe when each video track started. A publisher that does not
/// receive (the default) declines the offers and has nothing to hand out.
extension RoomClientLiveSuites {
    @Suite(.live, .timeLimit(.minutes(10))) struct RoomReceiverTests {
        /// What a frame observer saw, shared with the receiver's thread.
        final class ObservedFrames: Sendable {
            let list = Mutex<[ReceivedVideoFrame]>([])
        }

        static func waitUntil(_ timeout: Double, _ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition() {
                guard Date() < deadline else { return false }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return true
        }

        @Test func aReceivingPublisherDecodesH264AndVP8AndOpus() throws {
            let server = try RoomServerHarness()
            let room = try server.makeRoom()
            let url = "ws://127.0.0.1:\(server.port)/v2/rtc"
            let small = CameraFormat(width: 320, height: 180, framesPerSecond: 15)
            func sender(_ name: String, _ rgb: UInt32, _ codec: PublishedVideoCodec, _ tone: Double) throws -> RoomPublisher {
                try RoomPublisher(configuration: .init(signalingURL: url, roomID: room, token: try server.token(), participantName: name,
                                                       camera: try TestPatternCamera(name: name, rgb: rgb, format: small),
                                                       microphone: ToneMicrophone(frequency: tone), videoCodec: codec))
            }
            let red = try sender("Red", 0xD02020, .h264, 440)
            defer { red.leave() }
            let blue = try sender("Blue", 0x2040D0, .vp8, 1000)
            defer { blue.leave() }
            // The watcher comes in mid-stream, so its first picture needs a keyframe asked of the
            // publisher (one that had not sent yet would answer the ask with its first keyframe).
            #expect(Self.waitUntil(30) { [red, blue].allSatisfy { $0.currentStatistics.sender.packetsSent >= 60 } })
            var configuration = RoomPublisher.Configuration(signalingURL: url, roomID: room, token: try server.token(), participantName: "Watcher",
                                                            camera: nil, microphone: nil)
            configuration.receives = true
            let watcher = try RoomPublisher(configuration: configuration)
            defer { watcher.leave() }
            #expect(red.remoteTrack(participantID: watcher.participantID, kind: .video) == nil, "a publisher that does not receive hands out nothing")

            let senders = [(red, "H264"), (blue, "VP8")]
            let decoding = Self.waitUntil(30) {
                senders.allSatisfy { publisher, _ in
                    let video = watcher.remoteTrack(participantID: publisher.participantID, kind: .video)?.statistics
                    let audio = watcher.remoteTrack(participantID: publisher.participantID, kind: .audio)?.statistics
                    return (video?.framesDecoded ?? 0) >= 15 && (audio?.samplesDecoded ?? 0) >= 48_000
                }
            }
            for (publisher, codec) in senders {
                let video = try #require(watcher.remoteTrack(participantID: publisher.participantID, kind: .video)).statistics
                let audio = try #require(watcher.remoteTrack(participantID: publisher.participantID, kind: .audio)).statistics
                print("measured: receiver of \(publisher.configuration.participantName): \(video.codec ?? "?") \(video.framesDecoded) frames "
                    + "\(video.frameWidth)x\(video.frameHeight) (\(video.keyframesReceived) keyframes, \(video.keyframeRequests) PLI sent, "
                    + "\(video.packetsLost) lost, \(video.decodeErrors) errors); \(audio.codec ?? "?") \(audio.samplesDecoded) samples "
                    + "(\(audio.samplesConcealed) concealed)")
                #expect(decoding, "\(video) \(audio)")
                #expect(video.codec == codec && audio.codec == "opus")
                #expect(video.frameWidth == 320 && video.frameHeight == 180)
                #expect(video.keyframeRequests >= 1 && video.keyframesReceived >= 1 && video.decodeErrors == 0)
                #expect(audio.decodeErrors == 0)
                // The publisher counts the request on its media thread, which may read it a moment
                // after the watcher has decoded the keyframe it asked for.
                let asked = Self.waitUntil(5) { publisher.currentStatistics.sender.pliReceived + publisher.currentStatistics.sender.firReceived >= 1 }
                #expect(asked, "\(publisher.currentStatistics.sender)")
            }
            // Each whole frame is shown to a frame observer before it is decoded: sizes as
            // received, timestamps and arrivals in order, no temporal layers from these senders.
            let observed = senders.map { publisher, _ in
                let frames = ObservedFrames()
                watcher.remoteTrack(participantID: publisher.participantID, kind: .video)?.setFrameObserver { frame in
                    frames.list.withLock { $0.append(frame) }
                }
                return frames
            }
            #expect(Self.waitUntil(10) { observed.allSatisfy { $0.list.withLock { $0.count } >= 10 } })
            for ((publisher, _), frames) in zip(senders, observed) {
                watcher.remoteTrack(participantID: publisher.participantID, kind: .video)?.setFrameObserver(nil)
                let seen = frames.list.withLock { $0 }
                print("measured: frame observer for \(publisher.configuration.participantName): \(seen.count) frames, "
                    + "\(seen.map(\.size).reduce(0, +)) bytes")
                #expect(seen.allSatisfy { $0.size > 0 && $0.temporalLayerID == nil && !$0.layerSync })
                #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.rtpTimestamp < $1.rtpTimestamp && $0.arrivalTime <= $1.arrivalTime })
            }
            #expect(watcher.failure == nil)
        }

        /// End-to-end encryption between clients (docs/E2EE.md), in VP8 and in H.264: one
        /// publisher encrypts with the room's shared key; the SFU forwards what it cannot read; a receiver with the key
        /// decodes its pictures and sound, one with the wrong key or none decodes nothing (its
        /// frames are counted as undecryptable, never handed to a decoder).
        @Test(arguments: PublishedVideoCodec.allCases)
        func onlyAReceiverWithTheKeySeesAnEncryptedPublisher(codec: PublishedVideoCodec) throws {
            let server = try RoomServerHarness()
            let room = try server.makeRoom()
            let url = "ws://127.0.0.1:\(server.port)/v2/rtc"
            let small = CameraFormat(width: 320, height: 180, framesPerSecond: 15)
            var sending = RoomPublisher.Configuration(signalingURL: url, roomID: room, token: try server.token(), participantName: "Sealed",
                                                      camera: try TestPatternCamera(name: "Sealed", rgb: 0x20B040, format: small),
                                                      microphone: ToneMicrophone(frequency: 660))
            sending.e2eeKeys = { E2EEKeys(sharedKey: "room key") }
            sending.videoCodec = codec
            let sealed = try RoomPublisher(configuration: sending)
            defer { sealed.leave() }
            func receiver(_ name: String, keys: E2EEKeys?) throws -> RoomPublisher {
                var configuration = RoomPublisher.Configuration(signalingURL: url, roomID: room, token: try server.token(), participantName: name,
                                                                camera: nil, microphone: nil)
                configuration.receives = true
                if let keys { configuration.e2eeKeys = { keys } }
                return try RoomPublisher(configuration: configuration)
            }
            let keyed = try receiver("Keyed", keys: E2EEKeys(sharedKey: "room key"))
            defer { keyed.leave() }
            let wrong = try receiver("Wrong", keys: E2EEKeys(sharedKey: "another key"))
            defer { wrong.leave() }
            let none = try receiver("None", keys: nil)
            defer { none.leave() }
            func counts(_ watcher: RoomPublisher) -> (video: RemoteTrack.Statistics?, audio: RemoteTrack.Statistics?) {
                (watcher.remoteTrack(participantID: sealed.participantID, kind: .video)?.statistics,
                 watcher.remoteTrack(participantID: sealed.participantID, kind: .audio)?.statistics)
            }
            let settled = Self.waitUntil(30) {
                let seen = counts(keyed)
                return (seen.video?.framesDecoded ?? 0) >= 15 && (seen.audio?.samplesDecoded ?? 0) >= 48_000
                    && [wrong, none].allSatisfy { (counts($0).video?.framesUndecryptable ?? 0) >= 15 && (counts($0).audio?.framesUndecryptable ?? 0) >= 50 }
            }
            for (watcher, name) in [(keyed, "with the key"), (wrong, "with the wrong key"), (none, "without a key")] {
                let (video, audio) = counts(watcher)
                print("measured: E2EE \(codec.encodingName) receiver \(name): video \(video?.framesDecoded ?? 0) decoded, \(video?.framesUndecryptable ?? 0) undecryptable; "
                    + "audio \(audio?.samplesDecoded ?? 0) samples decoded, \(audio?.framesUndecryptable ?? 0) frames undecryptable")
            }
            #expect(settled)
            let keyedVideo = try #require(counts(keyed).video)
            #expect(keyedVideo.framesUndecryptable == 0 && keyedVideo.decodeErrors == 0 && keyedVideo.frameWidth == 320)
            for watcher in [wrong, none] {
                let (video, audio) = counts(watcher)
                #expect(video?.framesDecoded == 0 && video?.decodeErrors == 0 && audio?.samplesDecoded == 0, "\(String(describing: video))")
            }
        }
    }
}
