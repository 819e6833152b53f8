import Capture
import Publisher
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

    /// Simulcast layers share a lowered target lowest first: the top layer gives way first, and
    /// each keeps a tenth of its rate (450 + 120 + 90 kb/s configured, h360p_w640p BALANCED).
    @Test func simulcastLayersGiveWayFromTheTop() {
        let configured = [90_000, 120_000, 450_000]
        #expect(SimulcastEncoding.share(660_000, among: configured) == configured)
        #expect(SimulcastEncoding.share(400_000, among: configured) == [90_000, 120_000, 190_000])
        #expect(SimulcastEncoding.share(230_000, among: configured) == [90_000, 120_000, 45_000])
        #expect(SimulcastEncoding.share(150_000, among: configured) == [90_000, 60_000, 45_000])
        #expect(SimulcastEncoding.share(0, among: configured) == [9_000, 12_000, 45_000])
    }

    @Test func layerSizesAreTheCamerasDividedAndEven() {
        let camera = CameraFormat(width: 640, height: 360)
        #expect(SimulcastEncoding(rid: "q", scaleDown: 4, bitrate: 1).format(for: camera) == CameraFormat(width: 160, height: 90))
        #expect(SimulcastEncoding(rid: "h", scaleDown: 2, bitrate: 1).format(for: camera) == CameraFormat(width: 320, height: 180))
        #expect(SimulcastEncoding(rid: "q", scaleDown: 4, bitrate: 1).format(for: CameraFormat(width: 1280, height: 720)).height == 180)
        #expect(SimulcastEncoding(rid: "q", scaleDown: 4, bitrate: 1).format(for: CameraFormat(width: 320, height: 180)) == CameraFormat(width: 80, height: 44))
        #expect(SimulcastEncoding.rids(count: 3) == ["q", "h", "f"] && SimulcastEncoding.rids(count: 2) == ["h", "f"])
    }
}
