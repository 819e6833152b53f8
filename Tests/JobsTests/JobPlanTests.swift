import Foundation
import JobSpec
@testable import Jobs
import Testing

/// `JobPlan`: what one attempt of a job runs. `config.maxDuration` is the job's: an attempt
/// after a takeover is given what the earlier attempts did not record.
@Suite struct JobPlanTests {
    static func job(_ kind: JobKind, attempts: Int, maxDuration: Double?, parts: [JobPart]) -> Job {
        var config = RecordingConfig()
        config.maxDuration = maxDuration
        return Job(id: UUID(), kind: kind, roomID: "room", sessionID: "session", state: .starting, config: config, outputs: [],
                   webhookURL: nil, awsDirPath: nil, preSignedURL: nil, workerID: nil, leaseExpiresAt: nil, attempts: attempts,
                   stopRequestedAt: nil, errorCode: nil, errorMessage: nil, parts: parts, progress: nil, transcription: nil,
                   createdAt: Date(), updatedAt: Date(), startedAt: nil, playableAt: nil, stoppedAt: nil)
    }

    static func plan(_ job: Job) -> JobPlan {
        JobPlan(job: job, source: .fixture(FixtureSourceSpec(directory: "/f", passes: nil, realtime: true)), storage: "/s",
                eventsDescriptor: 3, parentPID: 1)
    }

    @Test func aTakeoverIsGivenWhatTheEarlierAttemptsDidNotRecord() {
        let earlier = [JobPart(attempt: 1, kind: .mp4, path: "recordings/j/part-1.mp4", status: .repaired, duration: 40),
                       JobPart(attempt: 2, kind: .mp4, path: "recordings/j/part-2.mp4", status: .complete, duration: 15.5)]
        #expect(Self.plan(Self.job(.recording, attempts: 1, maxDuration: 60, parts: [])).spec.config.maxDuration == 60)
        #expect(Self.plan(Self.job(.recording, attempts: 3, maxDuration: 60, parts: earlier)).spec.config.maxDuration == 4.5)
        // Nothing left: the attempt stops at its first frame.
        #expect(Self.plan(Self.job(.recording, attempts: 3, maxDuration: 50, parts: earlier)).spec.config.maxDuration == JobPlan.shortestLimit)
        // HLS counts its HLS parts; no limit stays none.
        let hls = [JobPart(attempt: 1, kind: .hls, path: "hls/j/part-1", status: .complete, duration: 20)]
        #expect(Self.plan(Self.job(.hls, attempts: 2, maxDuration: 30, parts: hls)).spec.config.maxDuration == 10)
        #expect(Self.plan(Self.job(.recording, attempts: 3, maxDuration: nil, parts: earlier)).spec.config.maxDuration == nil)
    }
}
