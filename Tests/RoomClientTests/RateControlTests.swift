import RoomClient
import Testing

/// The publisher's answer to the server's REMB estimates, one rule a line: the video target is
/// the estimate less the audio and 10 %, within a tenth of the configured rate and the rate
/// itself, and small moves are left alone.
@Suite struct RateControlTests {
    @Test func theTargetFollowsTheEstimateWithinItsBounds() {
        // A path that takes 1 Mb/s: 900 kb/s less 32 kb/s of audio.
        #expect(RoomPublisher.videoTarget(estimate: 1_000_000, configured: 1_500_000, audioBitrate: 32_000, current: 1_500_000) == 868_000)
        // The server's ceiling (3 Mb/s) never raises it above what was configured.
        #expect(RoomPublisher.videoTarget(estimate: 3_000_000, configured: 1_500_000, audioBitrate: 32_000, current: 868_000) == 1_500_000)
        #expect(RoomPublisher.videoTarget(estimate: 3_000_000, configured: 1_500_000, audioBitrate: 32_000, current: 1_500_000) == nil)
        // A collapsed estimate stops at a tenth of the configured rate.
        #expect(RoomPublisher.videoTarget(estimate: 50_000, configured: 1_500_000, audioBitrate: 32_000, current: 1_500_000) == 150_000)
        #expect(RoomPublisher.videoTarget(estimate: 0, configured: 600_000, audioBitrate: 32_000, current: 600_000) == 60_000)
    }

    @Test func movesUnderFivePercentAreLeftAlone() {
        #expect(RoomPublisher.videoTarget(estimate: 1_000_000, configured: 1_500_000, audioBitrate: 32_000, current: 880_000) == nil)
        #expect(RoomPublisher.videoTarget(estimate: 1_000_000, configured: 1_500_000, audioBitrate: 32_000, current: 950_000) == 868_000)
    }
}
