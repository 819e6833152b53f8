import Foundation
@testable import RevueSDK
import TestSupport
import Testing

/// Reconnecting (Room+Reconnect.swift, docs/SDK.md "Reconnecting") on a real room server, with a
/// TCP proxy in front of its signalling that stops carrying Ann's connection without closing it:
/// a network that drops every packet, so neither Ann nor the server hears of a close. Ann's
/// keepalive notices, the room goes RECONNECTING (calls throw 3065), and Ann comes back with her
/// resume key while the server still holds her old self; her camera, microphone and publication
/// to Bob are sent again, and Bob decodes her camera again. A connection that breaks outright
/// is noticed at once. Out of time, the room is left with 1102; `leave()` while reconnecting
/// leaves at once.
extension RevueSDKTests {
    @MainActor @Suite(.live, .timeLimit(.minutes(10))) struct ReconnectTests {
        let server: RoomServerHarness
        let proxy: TCPProxy
        let roomId: String

        init() throws {
            server = try RoomServerHarness()
            proxy = try TCPProxy(upstreamPort: server.port)
            roomId = try server.makeRoom()
        }

        func room(_ name: String, throughProxy: Bool, mic: Bool = false, cam: Bool = false, camera: CustomStreamTrack? = nil,
                  mode: Mode = .SEND_AND_RECV) throws -> (Room, EventLog)
        {
            let port = throughProxy ? proxy.port : server.port
            let room = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: name, micEnabled: mic, camEnabled: cam,
                                               mode: mode, customCameraTrack: camera, signalingURL: "ws://127.0.0.1:\(port)/v2/rtc")
            let log = EventLog()
            room.addEventListener(log)
            return (room, log)
        }

        static func smallCamera() async throws -> CustomStreamTrack {
            try await VideoSDK.createCameraVideoTrack(encoderConfig: .h180p_w320p, multiStream: false, bitrateMode: .BANDWIDTH_OPTIMIZED)
        }

        /// Frames decoded so far of `who`'s camera, as `room` receives it (the stream of now).
        static func decoded(_ room: Room, of who: String) -> Int {
            room.participants.values.first { $0.displayName == who }?.stream(of: .VIDEO)?.remoteVideoTrack?.statistics.framesDecoded ?? 0
        }

        @Test func aSilentNetworkIsNoticedAndTheRoomComesBackWithItsMedia() async throws {
            // Bob's camera is a file: a device opens one track at a time, as a real camera does,
            // so the two cannot share the synthetic one.
            let directory = try TemporaryDirectory(prefix: "reconnect")
            let (bobCamera, device) = try await RevueSDKTests.testsrc2Camera(in: directory, rate: 15, seconds: 2)
            defer { VideoSDK.removeDevice(deviceId: device) }
            let (bob, bobLog) = try room("Bob", throughProxy: false, cam: true, camera: bobCamera)
            try await bob.join()
            let (ann, annLog) = try room("Ann", throughProxy: true, mic: true, cam: true, camera: try await Self.smallCamera())
            try await ann.join()
            #expect(await annLog.wait(for: "streamEnabled local VIDEO"), "\(annLog.events)")
            #expect(await annLog.wait(for: "streamEnabled Bob VIDEO"), "\(annLog.events)")
            #expect(await bobLog.wait(for: "streamEnabled Ann VIDEO"), "\(bobLog.events)")
            #expect(await RevueSDKTests.waitUntil(30) { Self.decoded(bob, of: "Ann") > 10 && Self.decoded(ann, of: "Bob") > 10 })
            let toBob = try #require(ann.participants.values.first { $0.displayName == "Bob" })
            let publication = try await #require(ann.localParticipant).publishCamera(to: toBob)
            #expect(await RevueSDKTests.waitUntil(30) { (publication.statistics?.framesEncoded ?? 0) > 5 }, "\(String(describing: publication.statistics))")
            let annID = ann.localParticipant?.id
            let session = ann.sessionId
            let before = annLog.events.count
            let bobBefore = bobLog.events.count

            // The network stops carrying Ann's signalling; new connections fail for 12 s, so the
            // first attempts to come back fail too.
            let frozenAt = Date()
            proxy.freeze(for: 12)
            #expect(await annLog.wait(for: "state RECONNECTING", timeout: 20), "\(annLog.events)")
            let noticed = Date().timeIntervalSince(frozenAt)
            // The seed: while reconnecting, calls throw 3065 and the microphone stays on.
            await #expect(throws: VideoSDKError.ERROR_ROOM_RECONNECTING) { try await ann.muteMic() }
            #expect(ann.localParticipant?.stream(of: .AUDIO) != nil, "the microphone stays on")
            await #expect(throws: VideoSDKError.ERROR_ROOM_RECONNECTING) { try await ann.disableCam() }
            #expect(ann.localParticipant?.stream(of: .VIDEO) != nil && ann.camOn, "the camera stays on")
            await #expect(throws: VideoSDKError.ERROR_ROOM_RECONNECTING) { try await ann.enableScreenShare() }
            await #expect(throws: VideoSDKError.ERROR_ROOM_RECONNECTING) { try await ann.startRecording() }
            await #expect(throws: VideoSDKError.ERROR_ROOM_RECONNECTING) { try await ann.send("hello") }
            await #expect(throws: VideoSDKError.ERROR_ROOM_RECONNECTING) { try await ann.setWebcamQuality(.low) }
            await #expect(throws: VideoSDKError.ERROR_ROOM_RECONNECTING) { try await ann.enableCam() }
            await #expect(throws: VideoSDKError.ERROR_ROOM_RECONNECTING) { try await ann.changeCam() }
            await #expect(throws: VideoSDKError.ERROR_ROOM_RECONNECTING) { try await ann.unmuteMic() }
            await #expect(throws: VideoSDKError.ERROR_ROOM_RECONNECTING) { try await ann.changeMic() }
            await #expect(throws: VideoSDKError.ERROR_ROOM_RECONNECTING) { try await ann.enableAdaptiveSubscription() }
            await #expect(throws: VideoSDKError.ERROR_ROOM_RECONNECTING) { try await ann.disableAdaptiveSubscription() }
            // changeMode's 3065 also goes to onError (the seed); the count is checked below.
            await #expect(throws: VideoSDKError.ERROR_ROOM_RECONNECTING) { try await ann.changeMode(.RECV_ONLY) }
            #expect(annLog.errors.map(\.code) == [3065], "\(annLog.events)")
            #expect(await annLog.wait(timeout: 40) { $0.dropFirst(before).filter { $0 == "state CONNECTED" }.count == 1 }, "\(annLog.since(before))")
            let back = Date().timeIntervalSince(frozenAt)
            print("measured: reconnect: the silence noticed after \(String(format: "%.1f", noticed)) s, back in after \(String(format: "%.1f", back)) s")
            #expect(annLog.since(before) == ["state RECONNECTING", "error 3065", "streamDisabled Bob VIDEO", "streamEnabled Bob VIDEO", "state CONNECTED"],
                    "\(annLog.since(before))")
            #expect(ann.localParticipant?.id == annID && ann.sessionId == session, "the same participant in the same session")
            // The server let the key take the old self's place while it still held it: Bob
            // hears Ann's old self leave as a lost connection, and Ann come back.
            #expect(await bobLog.wait { $0.dropFirst(bobBefore).contains("streamEnabled Ann VIDEO") }, "\(bobLog.since(bobBefore))")
            #expect(bobLog.since(bobBefore).starts(with: ["participantLeft Ann 1001", "participantJoined Ann"]), "\(bobLog.since(bobBefore))")
            #expect(proxy.connectionsCut == 1)
            // The media flows again both ways, and the publication to Bob is sent again.
            #expect(await RevueSDKTests.waitUntil(30) { Self.decoded(bob, of: "Ann") > 10 && Self.decoded(ann, of: "Bob") > 10 },
                    "Bob decoded \(Self.decoded(bob, of: "Ann")), Ann decoded \(Self.decoded(ann, of: "Bob"))")
            #expect(publication.isPublished)
            #expect(await RevueSDKTests.waitUntil(30) { (publication.statistics?.framesEncoded ?? 0) > 5 }, "\(String(describing: publication.statistics))")
            let bobsAnn = try #require(bob.participants.values.first { $0.displayName == "Ann" }?.stream(of: .VIDEO)?.remoteVideoTrack)
            #expect(await RevueSDKTests.waitUntil(30) { bobsAnn.statistics.keyframesReceived > 5 && bobsAnn.statistics.keyframesReceived == bobsAnn.statistics.framesReceived },
                    "Bob receives Ann's publication to him (vp8AllKeyframe) again: \(bobsAnn.statistics)")
            try await ann.muteMic()
            #expect(annLog.errors.map(\.code) == [3065] && bobLog.errors.isEmpty, "\(annLog.errors) \(bobLog.errors)")

            // Ann pauses the video she receives; the pause must outlive a reconnection.
            try await ann.pauseAllStreams(.VIDEO)
            #expect(await annLog.wait(for: "paused VIDEO"), "\(annLog.events)")

            // A connection that breaks (both ends closed, as a NAT that forgot it): noticed at
            // once, by the server too, and back in.
            let broken = annLog.events.count
            let brokenAt = Date()
            proxy.cut(for: 1)
            #expect(await annLog.wait(timeout: 20) { $0.dropFirst(broken).contains("state CONNECTED") }, "\(annLog.since(broken))")
            print("measured: reconnect after a broken connection: back in after \(String(format: "%.1f", Date().timeIntervalSince(brokenAt))) s")
            #expect(annLog.since(broken).starts(with: ["state RECONNECTING", "streamDisabled Bob VIDEO", "streamEnabled Bob VIDEO", "state CONNECTED"]),
                    "\(annLog.since(broken))")
            // The server's new member received everything: the pause is asked for again.
            #expect(await annLog.wait { $0.dropFirst(broken).contains("paused VIDEO") }, "\(annLog.since(broken))")
            let pausedAt = Self.decoded(ann, of: "Bob")
            #expect(await RevueSDKTests.waitUntil(30) { Self.decoded(bob, of: "Ann") > 10 }, "Bob decoded \(Self.decoded(bob, of: "Ann"))")
            // Meanwhile (Bob decoding ten of Ann's frames) Ann decoded none of Bob's but one in flight.
            let whilePaused = Self.decoded(ann, of: "Bob") - pausedAt
            print("measured: reconnect: \(whilePaused) frames of Bob decoded while paused")
            #expect(whilePaused <= 1, "\(whilePaused) frames of Bob decoded while the video was paused")
            try await ann.resumeAllStreams(.VIDEO)
            #expect(await RevueSDKTests.waitUntil(30) { Self.decoded(ann, of: "Bob") > pausedAt + 5 }, "Ann decoded \(Self.decoded(ann, of: "Bob"))")

            // Silent again, and leave() while reconnecting: out at once, with 1101.
            let second = annLog.events.count
            proxy.freeze(for: 60)
            #expect(await annLog.wait(timeout: 20) { $0.dropFirst(second).contains("state RECONNECTING") }, "\(annLog.since(second))")
            try await ann.leave()
            #expect(annLog.since(second) == ["state RECONNECTING", "state CLOSING", "state CLOSED", "roomLeft 1101"], "\(annLog.since(second))")
            try await bob.leave()
        }

        /// A room joined SIGNALLING_ONLY and promoted receives again after a reconnection: the
        /// rejoin (in the first join's mode) starts receiving before it asks for the mode again.
        @Test func aPromotedSignallingOnlyRoomReceivesAgainAfterReconnecting() async throws {
            let (bob, bobLog) = try room("Bob", throughProxy: false, cam: true, camera: try await Self.smallCamera())
            try await bob.join()
            let (watcher, watcherLog) = try room("Watcher", throughProxy: true, mode: .SIGNALLING_ONLY)
            try await watcher.join()
            #expect(await watcherLog.wait(for: "streamEnabled Bob VIDEO"), "\(watcherLog.events)")
            try await watcher.changeMode(.SEND_AND_RECV)
            #expect(await RevueSDKTests.waitUntil(30) { Self.decoded(watcher, of: "Bob") > 10 }, "decoded \(Self.decoded(watcher, of: "Bob"))")
            let broken = watcherLog.events.count
            proxy.cut(for: 1)
            #expect(await watcherLog.wait(timeout: 20) { $0.dropFirst(broken).contains("state CONNECTED") }, "\(watcherLog.since(broken))")
            #expect(await RevueSDKTests.waitUntil(30) { Self.decoded(watcher, of: "Bob") > 10 },
                    "the stream of now decodes again: \(Self.decoded(watcher, of: "Bob")), \(watcherLog.since(broken))")
            #expect(watcher.localParticipant?.mode == .SEND_AND_RECV)
            #expect(watcherLog.errors.isEmpty && bobLog.errors.isEmpty, "\(watcherLog.errors) \(bobLog.errors)")
            try await watcher.leave()
            try await bob.leave()
        }

        /// A rejoin is told the running jobs' states again: the app hears each state once, and a
        /// new state (or the same one after another) again.
        @Test func aJobStateIsToldOnceEvenWhenTheServerRepeatsIt() throws {
            let (ann, annLog) = try room("Ann", throughProxy: false)
            for status in ["RECORDING_STARTING", "RECORDING_STARTED", "RECORDING_STARTED", "RECORDING_STOPPING", "RECORDING_STOPPED", "RECORDING_STARTING"] {
                ann.handle(.recordingStateChanged(status: status))
            }
            ann.handle(.hlsStateChanged(status: "HLS_PLAYABLE", playbackHlsUrl: "http://a/1.m3u8", livestreamUrl: nil))
            ann.handle(.hlsStateChanged(status: "HLS_PLAYABLE", playbackHlsUrl: "http://a/1.m3u8", livestreamUrl: nil))
            ann.handle(.livestreamStateChanged(status: "LIVESTREAM_STARTED"))
            ann.handle(.livestreamStateChanged(status: "LIVESTREAM_STARTED"))
            #expect(annLog.events == ["recording RECORDING_STARTING", "recording RECORDING_STARTED", "recording RECORDING_STOPPING",
                                      "recording RECORDING_STOPPED", "recording RECORDING_STARTING", "hls HLS_PLAYABLE", "livestream LIVESTREAM_STARTED"],
                    "\(annLog.events)")
        }

        @Test func outOfTimeTheRoomIsLeftWith1102() async throws {
            let (ann, annLog) = try room("Ann", throughProxy: true)
            try await ann.join()
            ann.reconnectWindow = .seconds(2)
            proxy.freeze(for: 600)
            #expect(await annLog.wait(for: "roomLeft 1102", timeout: 30), "\(annLog.events)")
            #expect(annLog.events.suffix(4) == ["state RECONNECTING", "error 3047", "state CLOSED", "roomLeft 1102"], "\(annLog.events)")
            #expect(annLog.errors.last?.message.contains("could not reconnect") == true, "\(annLog.errors)")
            #expect(ann.state == .CLOSED)
            await #expect(throws: VideoSDKError.ERROR_ALREADY_IN_REQUESTED_STATE) { try await ann.leave() }
        }
    }
}
