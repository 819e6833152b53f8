import Fixture
import Foundation
import TestSupport
import Testing

@Suite struct FixtureTests {
    @Test func theExampleLoads() throws {
        let fixture = try Fixture(directory: TestFixtures.path("example"))
        #expect(fixture.packets.count == 971)
        #expect(fixture.packets.first?.arrival == 0)
        #expect(fixture.captureDuration > 5.9 && fixture.captureDuration < 6.1)
        #expect(fixture.warnings.isEmpty)
    }

    @Test func missingFilesAreNamed() throws {
        let directory = try TemporaryDirectory(prefix: "fixture")
        let missingDirectory = #expect(throws: FixtureError.self) { try Fixture(directory: directory.file("nope")) }
        #expect(missingDirectory?.description.contains("nope") == true)
        let missingManifest = #expect(throws: FixtureError.self) { try Fixture(directory: directory.path) }
        #expect(missingManifest?.description.contains("manifest.json") == true)
        try FileManager.default.copyItem(atPath: TestFixtures.path("example") + "/manifest.json", toPath: directory.file("manifest.json"))
        let missingCapture = #expect(throws: FixtureError.self) { try Fixture(directory: directory.path) }
        #expect(missingCapture?.description.contains("capture.pcap") == true)
    }

    @Test func anSSRCThatNeverAppearsIsAnError() throws {
        let directory = try TemporaryDirectory(prefix: "fixture")
        try FileManager.default.copyItem(atPath: TestFixtures.path("example") + "/capture.pcap", toPath: directory.file("capture.pcap"))
        let manifest = """
            {"participants": [{"id": "erin", "tracks": [{"kind": "video", "ssrc": 7001, "codec": "VP8", "payloadType": 96, "clockRate": 90000},
                                                        {"kind": "audio", "ssrc": 9999, "codec": "opus", "payloadType": 111, "clockRate": 48000}]}]}
            """
        try manifest.write(toFile: directory.file("manifest.json"), atomically: true, encoding: .utf8)
        let error = #expect(throws: FixtureError.self) { try Fixture(directory: directory.path) }
        #expect(error?.description.contains("ssrc 9999") == true)
        #expect(error?.description.contains("erin") == true)
    }

    @Test func aTruncatedCaptureLoadsWithAWarning() throws {
        let directory = try TemporaryDirectory(prefix: "fixture")
        let data = try #require(FileManager.default.contents(atPath: TestFixtures.path("example") + "/capture.pcap"))
        try Data(data.prefix(data.count - 100)).write(to: URL(fileURLWithPath: directory.file("capture.pcap")))
        try FileManager.default.copyItem(atPath: TestFixtures.path("example") + "/manifest.json", toPath: directory.file("manifest.json"))
        let fixture = try Fixture(directory: directory.path)
        #expect(fixture.packets.count == 970)
        #expect(fixture.warnings.contains { $0.contains("truncated") })
    }

    @Test func fastReplayDeliversEverythingInOrder() throws {
        let fixture = try Fixture(directory: TestFixtures.path("example"))
        var arrivals: [Double] = []
        FixtureReplay(fixture: fixture, pacing: .asFastAsPossible).run { _, packet in
            arrivals.append(packet.arrival)
            return true
        }
        #expect(arrivals.count == fixture.packets.count)
        #expect(arrivals == arrivals.sorted())
    }

    @Test func loopedReplayShiftsEachPass() throws {
        let fixture = try Fixture(directory: TestFixtures.path("example"))
        let replay = FixtureReplay(fixture: fixture, pacing: .asFastAsPossible, passes: 3, loopGap: 1)
        var lastByPass: [Int: Double] = [:]
        var count = 0
        replay.run { pass, packet in
            lastByPass[pass] = packet.arrival
            count += 1
            return true
        }
        #expect(count == 3 * fixture.packets.count)
        #expect(abs((lastByPass[2] ?? 0) - (2 * replay.passLength + fixture.captureDuration)) < 1e-9)
    }

    /// Paced replay never hands a datagram over before its capture time.
    @Test func pacedReplayWaitsForEachCaptureTime() throws {
        let full = try Fixture(directory: TestFixtures.path("example"))
        let fixture = full.with(packets: Array(full.packets.prefix { $0.arrival < 0.4 }))
        var early: [Double] = []
        let start = DispatchTime.now().uptimeNanoseconds
        FixtureReplay(fixture: fixture, pacing: .realtime).run { _, packet in
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if elapsed + 0.002 < packet.arrival { early.append(packet.arrival - elapsed) }
            return true
        }
        #expect(early.isEmpty)
    }

    @Test func replayStopsWhenTheConsumerSaysSo() throws {
        let fixture = try Fixture(directory: TestFixtures.path("example"))
        var count = 0
        FixtureReplay(fixture: fixture, pacing: .asFastAsPossible, passes: nil).run { _, _ in
            count += 1
            return count < 10
        }
        #expect(count == 10)
    }
}
