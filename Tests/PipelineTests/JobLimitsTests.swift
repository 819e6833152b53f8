import JobSpec
import Pipeline
import Testing

/// `JobLimits`: when a run stops on its own, from the media time and whether anyone publishes.
@Suite struct JobLimitsTests {
    @Test func theMaximumDurationStopsAtItsMediaTime() {
        var limits = JobLimits(maxDuration: 60, idleTimeout: nil)
        #expect(limits.check(recorded: 59.9, mediaTime: 59.9, publishing: true) == nil)
        #expect(limits.check(recorded: 60, mediaTime: 60, publishing: true) == JobStopLimit(.maxDuration, seconds: 60))
    }

    @Test func aPauseDoesNotCountTowardsTheMaximumButDoesTowardsIdle() {
        var limits = JobLimits(maxDuration: 60, idleTimeout: 30)
        // 50 s recorded, then 40 s paused with nobody publishing: idle at room time 90…
        #expect(limits.check(recorded: 50, mediaTime: 50, publishing: true) == nil)
        #expect(limits.check(recorded: 50, mediaTime: 60, publishing: false) == nil)
        #expect(limits.check(recorded: 50, mediaTime: 89.9, publishing: false) == nil)
        #expect(limits.check(recorded: 50, mediaTime: 90, publishing: false) == JobStopLimit(.idle, seconds: 30))
        // …and the maximum counts only what was written.
        var long = JobLimits(maxDuration: 60, idleTimeout: nil)
        #expect(long.check(recorded: 59, mediaTime: 300, publishing: true) == nil)
        #expect(long.check(recorded: 60, mediaTime: 301, publishing: true) == JobStopLimit(.maxDuration, seconds: 60))
    }

    @Test func idleCountsFromTheFirstQuietMomentAndPublishingResetsIt() {
        var limits = JobLimits(maxDuration: nil, idleTimeout: 10)
        // Nobody yet: quiet from the start.
        #expect(limits.check(recorded: 0, mediaTime: 0, publishing: false) == nil)
        #expect(limits.check(recorded: 9, mediaTime: 9, publishing: false) == nil)
        // Someone publishes: the count starts again after they stop.
        #expect(limits.check(recorded: 9.5, mediaTime: 9.5, publishing: true) == nil)
        #expect(limits.check(recorded: 12, mediaTime: 12, publishing: false) == nil)
        #expect(limits.check(recorded: 21.9, mediaTime: 21.9, publishing: false) == nil)
        #expect(limits.check(recorded: 22, mediaTime: 22, publishing: false) == JobStopLimit(.idle, seconds: 10))
    }

    @Test func zeroNeverIdlesAndRoomsDefaultToThreeMinutes() {
        var never = JobLimits(maxDuration: nil, idleTimeout: 0)
        #expect(never.check(recorded: 0, mediaTime: 0, publishing: false) == nil)
        #expect(never.check(recorded: 100_000, mediaTime: 100_000, publishing: false) == nil)
        #expect(JobLimits(config: RecordingConfig(), room: true).idleTimeout == 180)
        #expect(JobLimits(config: RecordingConfig(), room: false).idleTimeout == nil)
        var config = RecordingConfig()
        config.idleTimeout = 30
        config.maxDuration = 600
        let fixture = JobLimits(config: config, room: false)
        #expect(fixture.idleTimeout == 30 && fixture.maxDuration == 600)
    }

    @Test func reasonsNameTheLimitAndItsCode() {
        let longest = JobStopLimit(.maxDuration, seconds: 3600)
        #expect(longest.code(for: .recording) == 5004 && longest.code(for: .livestream) == 5005 && longest.code(for: .hls) == 5006)
        #expect(longest.reason(for: .hls) == "HLS_DURATION_LIMIT_REACHED: stopped at its maximum duration of 3600 s")
        let quiet = JobStopLimit(.idle, seconds: 180)
        #expect(quiet.code(for: .recording) == nil)
        #expect(quiet.reason(for: .recording) == "idle: stopped after nobody published for 180 s")
    }
}
