import Foundation
@testable import RevueSDK
import Synchronization
import TestSupport
import Testing

/// `runPreCallTest` and `stopPreCallTest` (seed 001) against a real room server: the devices
/// are checked, the network is measured both ways against `/v2/precall/…`, and each documented
/// refusal has its code.
extension RevueSDKTests {
    @MainActor @Suite(.live, .timeLimit(.minutes(10))) struct PreCallTestTests {
        final class Figures: Sendable {
            let seen = Mutex<[PreCallNetworkQuality]>([])
        }

        @Test func aTestMeasuresTheDevicesAndBothDirections() async throws {
            let server = try RoomServerHarness()
            let url = "ws://127.0.0.1:\(server.port)/v2/rtc"
            let figures = Figures()
            let result = try await VideoSDK.runPreCallTest(PreCallTestOptions(token: try server.token(), samplingDuration: 10_000,
                                                                              signalingURL: url)) { stats in
                figures.seen.withLock { $0.append(stats) }
            }
            defer {
                result.camera.track?.stop()
                result.microphone.track?.stop()
            }
            let network = try #require(result.networkQuality)
            print("measured: pre-call test over loopback: uplink \(network.uplink.bitrate / 1_000_000) Mb/s, downlink "
                + "\(network.downlink.bitrate / 1_000_000) Mb/s, round trip \(String(format: "%.2f", network.uplink.roundTripTime)) ms, "
                + "quality \(network.uplink.quality)/\(network.downlink.quality), \(figures.seen.withLock { $0.count }) updates")
            #expect(!result.aborted)
            #expect(result.camera.passed && result.camera.track?.isEnded == false, "\(String(describing: result.camera.error))")
            #expect(result.microphone.passed && result.microphone.track != nil, "\(String(describing: result.microphone.error))")
            #expect(network.uplink.quality == 5 && network.downlink.quality == 5, "\(network)")
            // Loopback carries whatever is asked: both directions reach the test's 20 Mb/s ceiling, and stay under it.
            #expect((15_000_000...21_000_000).contains(network.uplink.bitrate) && (15_000_000...21_000_000).contains(network.downlink.bitrate),
                    "\(network)")
            // About one update a second, and the uplink is measured before the downlink.
            let updates = figures.seen.withLock { $0 }
            #expect(updates.count >= 5, "\(updates.count) updates")
            #expect(updates.first.map { $0.uplink.bitrate > 0 && $0.downlink.quality == 0 } == true, "\(String(describing: updates.first))")
        }

        @Test func stopPreCallTestEndsItAndTheResultSaysAborted() async throws {
            let server = try RoomServerHarness()
            let options = PreCallTestOptions(token: try server.token(), samplingDuration: 60_000, signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc")
            let started = Date()
            let running = Task { try await VideoSDK.runPreCallTest(options) }
            // A second test while one runs is refused.
            var refused: PreCallTestError?
            for _ in 0..<100 where refused == nil {
                try await Task.sleep(for: .milliseconds(20))
                do {
                    _ = try await VideoSDK.runPreCallTest(options)
                } catch {
                    if error.code == "ERROR_PRECALL_TEST_ALREADY_RUNNING" { refused = error }
                }
            }
            #expect(refused != nil)
            await VideoSDK.stopPreCallTest()
            let result = try await running.value
            result.camera.track?.stop()
            result.microphone.track?.stop()
            #expect(result.aborted && Date().timeIntervalSince(started) < 10, "stopped after \(Date().timeIntervalSince(started)) s")
            await VideoSDK.stopPreCallTest()  // none runs: nothing happens

            // Cancelling the calling Task stops the test as stopPreCallTest() does (the seed),
            // and the next one may start.
            let cancelledAt = Date()
            let cancelled = Task { try await VideoSDK.runPreCallTest(options) }
            try await Task.sleep(for: .seconds(1))
            cancelled.cancel()
            let cancelledResult = try await cancelled.value
            cancelledResult.camera.track?.stop()
            cancelledResult.microphone.track?.stop()
            #expect(cancelledResult.aborted && Date().timeIntervalSince(cancelledAt) < 10, "stopped after \(Date().timeIntervalSince(cancelledAt)) s")
            let next = Task { try await VideoSDK.runPreCallTest(options) }
            // Stopped once it runs (a stop before its start would find nothing to stop).
            let stopper = Task {
                for _ in 0..<100 where !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(100))
                    await VideoSDK.stopPreCallTest()
                }
            }
            let nextResult = try await next.value
            stopper.cancel()
            nextResult.camera.track?.stop()
            nextResult.microphone.track?.stop()
            #expect(nextResult.aborted, "a second test after a cancelled one ran, and was stopped")
        }

        @Test func refusalsHaveTheirCodes() async throws {
            let server = try RoomServerHarness()
            let url = "ws://127.0.0.1:\(server.port)/v2/rtc"
            func code(_ options: PreCallTestOptions) async -> String? {
                do {
                    let result = try await VideoSDK.runPreCallTest(options)
                    result.camera.track?.stop()
                    result.microphone.track?.stop()
                    return nil
                } catch {
                    return error.code
                }
            }
            #expect(await code(PreCallTestOptions(token: "", signalingURL: url)) == "ERROR_PRECALL_INVALID_TOKEN")
            #expect(await code(PreCallTestOptions(token: "not-a-jwt", samplingDuration: 10_000, signalingURL: url)) == "ERROR_PRECALL_INVALID_TOKEN")
            #expect(await code(PreCallTestOptions(token: try server.token(), samplingDuration: 5_000, signalingURL: url))
                    == "ERROR_PRECALL_INVALID_SAMPLING_DURATION")
            #expect(await code(PreCallTestOptions(token: try server.token(), samplingDuration: 10_000, signalingURL: "ws://127.0.0.1:1/v2/rtc"))
                    == "ERROR_PRECALL_NETWORK")
            // After createRoom, before the join (the seed: "Run it before createRoom(), or after
            // you leave the room"), and while the room is joined: after init.
            let roomId = try server.makeRoom()
            let room = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: "Early", micEnabled: false,
                                               camEnabled: false, signalingURL: url)
            #expect(await code(PreCallTestOptions(token: try server.token(), samplingDuration: 10_000, signalingURL: url)) == "ERROR_PRECALL_AFTER_INIT")
            try await room.join()
            #expect(await code(PreCallTestOptions(token: try server.token(), samplingDuration: 10_000, signalingURL: url)) == "ERROR_PRECALL_AFTER_INIT")
            try await room.leave()
            #expect(VideoSDK.state.with { $0.roomsIn } == 0)
            // A room created and let go of without a join holds nothing either.
            do {
                _ = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: "Never", signalingURL: url)
            }
            #expect(VideoSDK.state.with { $0.roomsIn } == 0)
        }
    }
}
