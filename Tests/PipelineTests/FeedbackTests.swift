import Fixture
import Foundation
import JobSpec
import Outputs
import Pipeline
import RTP
import TestSupport
import Testing

/// What the receive path asks of the senders reaches the source: the fixture source counts the
/// NACKs, keyframe requests and receiver reports a live room would send as RTCP.
@Suite struct FeedbackTests {
    static func record(_ fixture: Fixture) throws -> FixtureSource.FeedbackLog {
        let directory = try TemporaryDirectory(prefix: "feedback")
        var config = RecordingConfig()
        config.quality = .low
        let pipeline = try RecordingPipeline(config: config)
        pipeline.add(sink: try MP4FileOutput(path: directory.file("out.mp4"), streams: pipeline.streams))
        let source = FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible))
        try pipeline.run(source)
        return source.feedback
    }

    @Test func aLosslessCaptureAsksForNothingButTheFirstKeyframes() throws {
        let feedback = try Self.record(try Fixture(directory: TestFixtures.path("example")))
        #expect(feedback.nackMessages.isEmpty)
        #expect(feedback.pictureLossIndications == [7001: 1, 7011: 1])
        #expect(feedback.receiverReports >= 5)
        #expect(feedback.latestReports[7001]?.cumulativeLost == 0)
        #expect(feedback.latestReports[7002]?.cumulativeLost == 0)
    }

    @Test func lossBringsNacksKeyframeRequestsAndReportedLoss() throws {
        let degraded = DegradedFixtureTests.degrade(try Fixture(directory: TestFixtures.path("example")), seed: 7)
        let feedback = try Self.record(degraded.fixture)
        let lostVideo = degraded.dropped[7001]?.count ?? 0
        #expect(lostVideo > 0)
        // Every lost video packet was asked for at least once.
        #expect(feedback.nackMessages[7001, default: 0] > 0)
        #expect(feedback.nackedPackets[7001, default: 0] >= lostVideo)
        // A frame that could not be completed asks for a keyframe, beyond the first request.
        #expect(feedback.pictureLossIndications[7001, default: 0] > 1)
        // The receiver reports count the loss: every dropped packet below the highest one that
        // arrived (a packet lost at the very end is not known to be missing).
        var unwrapper = SequenceUnwrapper()
        let received = degraded.fixture.packets.compactMap { packet -> Int64? in
            guard !RTPPacket.looksLikeRTCP(packet.payload), let rtp = try? RTPPacket(parsing: packet.payload), rtp.ssrc == 7001 else { return nil }
            return unwrapper.unwrap(rtp.sequenceNumber)
        }
        let highest = try #require(received.max())
        let reported = try #require(feedback.latestReports[7001]?.cumulativeLost)
        #expect(Int(reported) == degraded.dropped[7001, default: []].filter { $0 < highest }.count)
    }
}
