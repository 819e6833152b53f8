import Foundation
import JobSpec
import Media
@testable import RevueSDK
import Publisher
import Synchronization
import TestSupport
import Testing

/// The SDK receives: an SDK participant (a small test pattern and a tone) and a headless
/// Chromium on the room server's join page (its fake camera and microphone from files) see and
/// hear each other. Chromium's `getStats` shows the SDK's video and audio decoding; the SDK's
/// remote `Stream`s count Chromium's decoded pictures (at the y4m's size) and sound, and hand
/// the pictures to a frame handler. A few seconds of media, every wait a condition.
extension RevueSDKTests {
    @MainActor @Suite(.browser, .timeLimit(.minutes(10)), .oneRoomAtATime) struct RemoteMediaBrowserTests {
        /// What the frame handler saw, on the SDK's receive thread.
        final class Pictures: Sendable {
            let seen = Mutex((count: 0, size: ""))
        }

        /// Polls `condition` every 100 ms until it holds (true) or `timeout` passes (false): the
        /// timeout bounds a hang, it measures nothing.
        static func wait(_ timeout: Double, _ condition: () throws -> Bool) async rethrows -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while try !condition() {
                guard Date() < deadline else { return false }
                try? await Task.sleep(for: .milliseconds(100))
            }
            return true
        }

        /// The join page's figures for what it receives (`window.revue.stats()`), by kind.
        static func inbound(_ page: HeadlessChromium.Page) throws -> [String: [String: Any]] {
            let stats = (try page.evaluate("window.revue ? window.revue.stats() : null") as? [String: Any]) ?? [:]
            var byKind: [String: [String: Any]] = [:]
            for entry in (stats["inbound"] as? [[String: Any]]) ?? [] {
                if let kind = entry["kind"] as? String { byKind[kind] = entry }
            }
            return byKind
        }

        /// "Bot": the SDK's small test pattern and its tone, joined.
        static func joinBot(_ server: RoomServerHarness, roomId: String) async throws -> (Room, EventLog) {
            let camera = try await VideoSDK.createCameraVideoTrack(encoderConfig: .h180p_w320p, multiStream: false, bitrateMode: .BANDWIDTH_OPTIMIZED)
            let bot = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: "Bot", micEnabled: true, camEnabled: true,
                                              customCameraTrack: camera, signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc")
            let log = EventLog()
            bot.addEventListener(log)
            try await bot.join()
            return (bot, log)
        }

        @Test func anSDKParticipantAndChromiumSeeAndHearEachOther() async throws {
            let server = try RoomServerHarness()
            let roomId = try server.makeRoom()
            let (bot, log) = try await Self.joinBot(server, roomId: roomId)
            #expect(await log.wait(for: "streamEnabled local VIDEO"), "\(log.events)")

            let media = try TemporaryDirectory(prefix: "sdk-remote-media")
            let green = try FakeMedia(colour: "0x20B040", tone: 660, in: media, name: "green")
            let chromium = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments(video: green.video, audio: green.audio))
            let page = try chromium.open(server.joinURL(room: roomId, token: try server.token(), name: "Browser"))

            // The SDK sees Chromium's streams come on, each with its remote track.
            #expect(await log.wait(timeout: 30) { $0.contains("streamEnabled Browser VIDEO") && $0.contains("streamEnabled Browser AUDIO") },
                    "\(log.events)")
            let browser = try #require(bot.participants.values.first { $0.displayName == "Browser" })
            let video = try #require(browser.stream(of: .VIDEO)?.remoteVideoTrack)
            let audio = try #require(browser.stream(of: .AUDIO)?.remoteAudioTrack)
            #expect(browser.stream(of: .VIDEO)?.remoteAudioTrack == nil && bot.localParticipant?.stream(of: .VIDEO)?.remoteVideoTrack == nil)
            let handled = Pictures()
            video.setFrameHandler { picture in handled.seen.withLock { $0 = ($0.count + 1, "\(picture.width)x\(picture.height)") } }

            // Both sides decode: Chromium the SDK's VP8 and Opus, the SDK Chromium's.
            var chromiumFigures: [String: [String: Any]] = [:]
            let bothDecode = try await Self.wait(40) {
                chromiumFigures = try Self.inbound(page)
                let seen = chromiumFigures["video"]?["framesDecoded"] as? Int ?? 0
                let heard = chromiumFigures["audio"]?["totalSamplesReceived"] as? Int ?? 0
                return seen >= 30 && heard >= 48_000 && video.statistics.framesDecoded >= 30 && audio.statistics.samplesDecoded >= 48_000
            }
            let sdkVideo = video.statistics, sdkAudio = audio.statistics
            let chromiumVideo = chromiumFigures["video"] ?? [:], chromiumAudio = chromiumFigures["audio"] ?? [:]
            let received = chromiumAudio["totalSamplesReceived"] as? Int ?? 0, concealed = chromiumAudio["concealedSamples"] as? Int ?? 0
            print("measured: Chromium getStats: video framesDecoded \(chromiumVideo["framesDecoded"] ?? 0) "
                + "\(chromiumVideo["frameWidth"] ?? 0)x\(chromiumVideo["frameHeight"] ?? 0), packetsLost \(chromiumVideo["packetsLost"] ?? 0); "
                + "audio totalSamplesReceived \(received), concealedSamples \(concealed), packetsLost \(chromiumAudio["packetsLost"] ?? 0)")
            print("measured: SDK remote video \(sdkVideo.codec ?? "?") framesDecoded \(sdkVideo.framesDecoded) \(sdkVideo.frameWidth)x\(sdkVideo.frameHeight) "
                + "(\(sdkVideo.keyframesReceived) keyframes, \(sdkVideo.keyframeRequests) PLI sent, \(sdkVideo.packetsLost) lost, "
                + "\(sdkVideo.decodeErrors) errors), handler \(handled.seen.withLock { $0.count }) pictures; remote audio \(sdkAudio.codec ?? "?") "
                + "samplesDecoded \(sdkAudio.samplesDecoded), samplesConcealed \(sdkAudio.samplesConcealed)")
            let errors = String(describing: try? page.evaluate("JSON.stringify(window.revue.errors)"))
            #expect(bothDecode, "Chromium \(chromiumFigures) errors \(errors); SDK \(sdkVideo) \(sdkAudio); \(log.events)")
            // Chromium decodes the SDK's 320x180 camera and plays its tone with little made up.
            #expect(chromiumVideo["frameWidth"] as? Int == 320 && chromiumVideo["frameHeight"] as? Int == 180, "\(chromiumVideo)")
            #expect(received > 0 && Double(concealed) < 0.2 * Double(received), "\(chromiumAudio)")
            // The SDK decodes Chromium's 640x360 file camera (or a 16:9 size below it: Chromium's
            // encoder may scale down on a loaded machine), asked for a keyframe at the start, and
            // its handler got the pictures.
            #expect(sdkVideo.frameWidth <= 640 && sdkVideo.frameWidth >= 160 && abs(sdkVideo.frameWidth * 9 - sdkVideo.frameHeight * 16) <= 16
                && sdkVideo.decodeErrors == 0, "\(sdkVideo)")
            #expect(sdkVideo.keyframeRequests >= 1 && sdkVideo.keyframesReceived >= 1, "\(sdkVideo)")
            let handlerSaw = handled.seen.withLock { $0 }
            let handlerWidth = Int(handlerSaw.size.split(separator: "x").first ?? "") ?? 0
            #expect(handlerSaw.count > 0 && handlerSaw.count <= video.statistics.framesDecoded && (160...640).contains(handlerWidth), "\(handlerSaw)")
            #expect(sdkAudio.codec == "opus" && sdkAudio.decodeErrors == 0 && sdkAudio.samplesConcealed < sdkAudio.samplesDecoded / 5, "\(sdkAudio)")

            try await bot.leave()
            #expect(log.errors.isEmpty, "\(log.errors)")
        }

        /// End-to-end encryption between the SDK and Chromium (docs/E2EE.md): the join page,
        /// given the room's key in its fragment, seals what it sends and opens what the SDK
        /// sends through Insertable Streams, in Revue's frame format; the SDK, with the same key
        /// in its key provider, does the same. Each decodes the other; a receiver without the key
        /// decodes none of Chromium's frames, so Chromium did encrypt.
        @Test func anEncryptingSDKParticipantAndAnEncryptingChromiumSeeEachOther() async throws {
            let key = "the-room-secret"
            let provider = BaseKeyProvider()
            try provider.setSharedKey(key)
            VideoSDK.setKeyProvider(provider)
            defer { VideoSDK.removeKeyProvider() }
            let server = try RoomServerHarness()
            let roomId = try server.makeRoom()
            let (bot, log) = try await Self.joinBot(server, roomId: roomId)
            #expect(await log.wait(for: "streamEnabled local VIDEO"), "\(log.events)")
            // A receiver below the SDK with no key at all.
            var blindConfiguration = RoomPublisher.Configuration(signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc", roomID: roomId,
                                                                 token: try server.token(), participantName: "Blind", camera: nil, microphone: nil)
            blindConfiguration.receives = true
            let blind = try RoomPublisher(configuration: blindConfiguration)
            defer { blind.leave() }

            let media = try TemporaryDirectory(prefix: "sdk-e2ee-browser")
            let green = try FakeMedia(colour: "0x20B040", tone: 660, in: media, name: "green")
            let chromium = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments(video: green.video, audio: green.audio))
            // The key goes in the fragment: the browser never sends it to the server.
            let page = try chromium.open(server.joinURL(room: roomId, token: try server.token(), name: "Browser") + "#e2ee=" + key)
            #expect(await log.wait(timeout: 30) { $0.contains("streamEnabled Browser VIDEO") && $0.contains("streamEnabled Browser AUDIO") },
                    "\(log.events)")
            let browser = try #require(bot.participants.values.first { $0.displayName == "Browser" })
            let video = try #require(browser.stream(of: .VIDEO)?.remoteVideoTrack)
            let audio = try #require(browser.stream(of: .AUDIO)?.remoteAudioTrack)
            func pageE2EE() throws -> [String: Int] {
                (try page.evaluate("JSON.stringify(window.revue ? window.revue.e2ee : {})") as? String).flatMap {
                    try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                }?.compactMapValues { $0 as? Int } ?? [:]
            }
            var chromiumFigures: [String: [String: Any]] = [:]
            var sealing: [String: Int] = [:]
            let blindVideo = { blind.remoteTrack(participantID: browser.id, kind: .video)?.statistics }
            let bothDecode = try await Self.wait(40) {
                chromiumFigures = try Self.inbound(page)
                sealing = try pageE2EE()
                let seen = chromiumFigures["video"]?["framesDecoded"] as? Int ?? 0
                return seen >= 30 && video.statistics.framesDecoded >= 30 && audio.statistics.samplesDecoded >= 48_000
                    && (blindVideo()?.framesUndecryptable ?? 0) >= 15
            }
            let sdkVideo = video.statistics, sdkAudio = audio.statistics
            let chromiumVideo = chromiumFigures["video"] ?? [:]
            print("measured: E2EE with Chromium: the page sealed \(sealing["sealed"] ?? 0) frames, opened \(sealing["opened"] ?? 0), "
                + "\(sealing["undecryptable"] ?? 0) did not open; Chromium decoded \(chromiumVideo["framesDecoded"] ?? 0) of the SDK's frames "
                + "\(chromiumVideo["frameWidth"] ?? 0)x\(chromiumVideo["frameHeight"] ?? 0); the SDK decoded \(sdkVideo.framesDecoded) of Chromium's "
                + "\(sdkVideo.frameWidth)x\(sdkVideo.frameHeight) (\(sdkVideo.framesUndecryptable) undecryptable) and \(sdkAudio.samplesDecoded) samples; "
                + "without the key: \(blindVideo()?.framesDecoded ?? -1) decoded, \(blindVideo()?.framesUndecryptable ?? -1) undecryptable")
            let errors = String(describing: try? page.evaluate("JSON.stringify(window.revue.errors)"))
            #expect(bothDecode, "Chromium \(chromiumFigures) \(sealing) errors \(errors); SDK \(sdkVideo) \(sdkAudio); blind \(String(describing: blindVideo()))")
            #expect(chromiumVideo["frameWidth"] as? Int == 320 && (sealing["opened"] ?? 0) >= 30 && sealing["undecryptable"] == 0, "\(chromiumVideo) \(sealing)")
            #expect((sealing["sealed"] ?? 0) >= 30)
            #expect(sdkVideo.framesUndecryptable == 0 && sdkVideo.decodeErrors == 0, "\(sdkVideo) \(sdkAudio)")
            #expect(blindVideo()?.framesDecoded == 0 && blindVideo()?.decodeErrors == 0, "\(String(describing: blindVideo()))")
            try await bot.leave()
            #expect(log.errors.isEmpty, "\(log.errors)")
        }
    }
}
