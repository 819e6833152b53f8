import Foundation
import Media
import Publisher
@testable import RevueSDK
import TestSupport
import Testing

/// 3045 ERROR_VIDEO_PRODUCE_CODEC_NOT_SUPPORTED against a room server that takes VP8 alone from
/// its publishers (`revue serve --video-codecs VP8`): a camera in H.264 is refused, on the
/// join's first offer and on a renegotiation, and the room goes on without it.
extension RevueSDKTests {
    @MainActor @Suite(.live, .timeLimit(.minutes(5))) struct RefusedCodecTests {
        let harness: HarnessRoom

        init() throws {
            harness = try HarnessRoom(videoCodecs: [.vp8])
        }

        static func camera(_ codec: VideoCodec) async throws -> CustomStreamTrack {
            try await VideoSDK.createCameraVideoTrack(encoderConfig: .h180p_w320p, multiStream: false, bitrateMode: .BANDWIDTH_OPTIMIZED,
                                                      codec: codec)
        }

        /// What `viewer` decodes of `who`'s camera once `done`, or the last seen after 15 s.
        static func decoded(by viewer: Room, of who: String, _ done: (RemoteVideoTrack.Statistics) -> Bool) async -> RemoteVideoTrack.Statistics? {
            var last: RemoteVideoTrack.Statistics?
            _ = await RevueSDKTests.waitUntil(15) {
                last = viewer.participants.values.first { $0.displayName == who }?.stream(of: .VIDEO)?.remoteVideoTrack?.statistics
                return last.map(done) ?? false
            }
            return last
        }

        @Test func anH264CameraIsRefusedWith3045AndTheRoomGoesOnWithout() async throws {
            // The join's first offer has the camera in H.264: the join succeeds, the camera is
            // refused with one 3045 and goes off.
            let (viewer, viewerLog) = try harness.room("Viewer")
            try await viewer.join()
            let (hana, log) = try harness.room("Hana", cam: true, camera: try await Self.camera(.H264))
            try await hana.join()
            #expect(hana.state == .CONNECTED, "\(log.events)")
            #expect(await log.wait(for: "error 3045"), "\(log.events)")
            let refused = try #require(log.errors.first { $0.code == 3045 })
            #expect(refused.message.contains("H.264"), "\(refused.message)")
            // The join turns the camera on once the answer took it: this one never is, and the
            // viewer never hears of it.
            #expect(await viewerLog.wait(for: "participantJoined Hana"), "\(viewerLog.events)")
            #expect(!hana.camOn && !viewerLog.events.contains { $0.hasSuffix("Hana VIDEO") }, "\(viewerLog.events)")

            // A VP8 track renegotiates the section in a codec the server takes.
            let heardBefore = viewerLog.events.count
            try await hana.enableCam(customCameraTrack: try await Self.camera(.VP8))
            #expect(await viewerLog.wait { $0.dropFirst(heardBefore).contains("streamEnabled Hana VIDEO") }, "\(viewerLog.events)")
            let vp8 = await Self.decoded(by: viewer, of: "Hana") { $0.codec == "VP8" && $0.framesDecoded > 5 }
            #expect(vp8?.codec == "VP8" && vp8?.frameWidth == 320, "\(String(describing: vp8))")
            #expect(log.errors.count == 1, "one 3045 for the join: \(log.events)")

            // An H.264 track now is refused at once, with no offer: the server said it takes none.
            try await hana.disableCam()
            let offers = hana.publisher?.currentStatistics.offersSent ?? 0
            let h264 = try await Self.camera(.H264)
            try await hana.enableCam(customCameraTrack: h264)
            #expect(log.errors.filter { $0.code == 3045 }.count == 2 && h264.isEnded && !hana.camOn, "\(log.events)")
            #expect(hana.publisher?.currentStatistics.offersSent == offers)
            let changeRefused = await #expect(throws: VideoSDKError.self) { try await hana.changeCam(customCameraTrack: try await Self.camera(.H264)) }
            #expect(changeRefused?.code == 3045, "\(String(describing: changeRefused))")

            // One who joined in VP8 and turns on an H.264 camera: the section offered again is
            // refused, the camera goes off (a viewer's stream is disabled) and 3045 says why.
            let (ian, ianLog) = try harness.room("Ian", cam: true, camera: try await Self.camera(.VP8))
            try await ian.join()
            #expect(await viewerLog.wait(for: "streamEnabled Ian VIDEO"), "\(viewerLog.events)")
            try await ian.disableCam()
            #expect(await viewerLog.wait(for: "streamDisabled Ian VIDEO"), "\(viewerLog.events)")
            let ianHeard = viewerLog.events.filter { $0.hasSuffix("Ian VIDEO") }
            let ianH264 = try await Self.camera(.H264)
            try await ian.enableCam(customCameraTrack: ianH264)
            // enableCam returned once the server answered: the camera was never announced.
            let ianRefused = try #require(ianLog.errors.first { $0.code == 3045 }, "\(ianLog.events)")
            #expect(!ian.camOn && ianH264.isEnded && viewerLog.events.filter { $0.hasSuffix("Ian VIDEO") } == ianHeard, "\(viewerLog.events)")

            // Jo sends VP8 and changes to an H.264 camera: the server refuses the section, so
            // changeCam throws 3045 and goes back to the VP8 camera, which the viewer decodes.
            let (jo, joLog) = try harness.room("Jo", cam: true, camera: try await Self.camera(.VP8))
            try await jo.join()
            #expect(await viewerLog.wait(for: "streamEnabled Jo VIDEO"), "\(viewerLog.events)")
            // The join's camera call ends with the room's reply, a moment after the viewer heard.
            #expect(await RevueSDKTests.waitUntil { jo.camOn && !jo.camBusy })
            let joH264 = try await Self.camera(.H264)
            let heardBeforeChange = viewerLog.events.count
            let changeBack = await #expect(throws: VideoSDKError.self) { try await jo.changeCam(customCameraTrack: joH264) }
            #expect(changeBack?.code == 3045 && joH264.isEnded && jo.camOn && jo.cameraTrack?.codec == .VP8, "\(String(describing: changeBack)) \(joLog.events)")
            #expect(joLog.errors.map(\.code) == [3045], "enableCam's report of the refusal, once: \(joLog.events)")
            #expect(await viewerLog.wait { $0.dropFirst(heardBeforeChange).contains("streamEnabled Jo VIDEO") }, "\(viewerLog.events)")
            let joBack = await Self.decoded(by: viewer, of: "Jo") { $0.codec == "VP8" && $0.framesDecoded > 5 }
            #expect(joBack?.codec == "VP8" && (joBack?.framesDecoded ?? 0) > 5, "\(String(describing: joBack))")
            print("measured: 3045 on the join (\(refused.message)); VP8 then decoded: \(vp8.map { "\($0.framesDecoded) pictures \($0.frameWidth) wide" } ?? "-"); "
                + "3045 at once for H.264 (\(log.errors.last?.message ?? "")); after a renegotiation: \(ianRefused.message); changeCam to H.264: \(changeBack?.message ?? "-"), "
                + "back in VP8 (\(joBack?.framesDecoded ?? 0) pictures); the viewer: \(viewerLog.events.filter { $0.contains("VIDEO") })")
            // Once, also after the camera went back (its refusal was not told a second time).
            #expect(viewerLog.errors.isEmpty && ianLog.errors.count == 1 && joLog.errors.count == 1, "\(viewerLog.errors) \(ianLog.errors) \(joLog.errors)")
            try await jo.leave()
            try await ian.leave()
            try await hana.leave()
            try await viewer.leave()
        }

        @Test func aCameraOffAtTheJoinOrAPromotedViewersOpensInACodecTheServerTakes() async throws {
            let (viewer, viewerLog) = try harness.room("Viewer")
            try await viewer.join()
            // createRoom's track is H.264 but the camera starts off: the join's camera section
            // is refused with nothing to tell (no 3045), and enableCam() then opens the default
            // camera in a codec the server takes.
            let (hana, log) = try harness.room("Hana", camera: try await Self.camera(.H264))
            try await hana.join()
            let publisher = try #require(hana.publisher)
            #expect(try await RevueSDKTests.offMain { publisher.waitForCamera(in: nil, timeout: 10) } == .refused(.h264))
            #expect(publisher.refusedCameraCodecs == [.h264])
            #expect(await RevueSDKTests.waitUntil(5) { hana.refusedCameraCodecs == [.h264] }, "\(hana.refusedCameraCodecs)")
            try await hana.enableCam()
            #expect(await viewerLog.wait(for: "streamEnabled Hana VIDEO"), "\(viewerLog.events)")
            let vp8 = await Self.decoded(by: viewer, of: "Hana") { $0.codec == "VP8" && $0.framesDecoded > 5 }
            #expect(vp8?.codec == "VP8", "\(String(describing: vp8))")
            #expect(log.errors.isEmpty, "\(log.events)")

            // A media relay offers a codec the server did not refuse: Carol, in another room,
            // decodes Hana's camera.
            let other = try harness.server.makeRoom()
            let (carol, carolLog) = try harness.room("Carol", roomId: other)
            try await carol.join()
            try await hana.requestMediaRelay(destinationRoomId: other, kinds: [.VIDEO])
            #expect(await carolLog.wait(for: "streamEnabled Hana VIDEO"), "\(carolLog.events)")
            let relayed = await Self.decoded(by: carol, of: "Hana") { $0.framesDecoded > 5 }
            #expect(relayed?.codec == "VP8" && (relayed?.framesDecoded ?? 0) > 5, "\(String(describing: relayed))")
            #expect(log.errors.isEmpty, "\(log.events)")
            try await carol.leave()

            // A viewer promoted to SEND_AND_RECV turns on a camera with createRoom's settings, once
            // the offer of its sections is answered: H.264 was refused there, so it opens in VP8,
            // and the room hears of that camera alone.
            let (ian, ianLog) = try harness.room("Ian", cam: true, camera: try await Self.camera(.H264), mode: .RECV_ONLY)
            try await ian.join()
            try await ian.changeMode(.SEND_AND_RECV)
            #expect(await viewerLog.wait(for: "streamEnabled Ian VIDEO"), "\(viewerLog.events)")
            let promoted = await Self.decoded(by: viewer, of: "Ian") { $0.framesDecoded > 5 }
            #expect(promoted?.codec == "VP8" && ian.publisher?.refusedCameraCodecs == [.h264], "\(String(describing: promoted))")
            #expect(viewerLog.events.filter { $0.hasSuffix("Ian VIDEO") } == ["streamEnabled Ian VIDEO"], "\(viewerLog.events)")
            print("measured: the join's H.264 section refused silently, then VP8 decoded (\(vp8?.framesDecoded ?? 0) pictures), relayed in VP8 (\(relayed?.framesDecoded ?? 0)); "
                + "the promoted viewer's camera in \(promoted?.codec ?? "-") (\(promoted?.framesDecoded ?? 0) pictures), the viewer heard \(viewerLog.events.filter { $0.contains("VIDEO") })")
            #expect(ianLog.errors.isEmpty && viewerLog.errors.isEmpty, "\(ianLog.errors) \(viewerLog.errors)")
            try await ian.leave()
            try await hana.leave()
            try await viewer.leave()
        }
    }
}
