@testable import CLI
import Capture
import Testing

/// `revue publish`'s command line, before anything joins: what each option asks for, and the
/// usage errors (exit 2) for what cannot be published. The live run is in RoomServerTests
/// (PublishCommandTests), inside a loopback-only namespace.
@Suite struct PublishCommandTests {
    static func request(_ arguments: [String]) throws -> PublishCommand.Request {
        try PublishCommand.request(ParsedArguments(arguments, spec: PublishCommand.spec, environment: [:]))
    }

    @Test func optionsBecomeARequest() throws {
        let defaults = try Self.request(["room-1", "--name", "Bot"])
        #expect(defaults.roomID == "room-1" && defaults.name == "Bot")
        #expect(defaults.codec == .vp8 && defaults.quality == .med && defaults.camera == "pattern" && defaults.microphone == "tone")
        #expect(defaults.signalingURL == "ws://127.0.0.1:8080/v2/rtc" && defaults.seconds == nil && !defaults.processAudio)
        let asked = try Self.request(["room-1", "--name", "Bot", "--codec", "h264", "--quality", "high", "--camera", "clip.y4m",
                                      "--mic", "none", "--server", "https://rooms.example", "--seconds", "5", "--process-audio"])
        #expect(asked.codec == .h264 && asked.quality == .high && asked.camera == "clip.y4m" && asked.microphone == "none")
        #expect(asked.signalingURL.hasPrefix("wss://rooms.example") && asked.seconds == 5 && asked.processAudio)
    }

    @Test func qualitiesSetSizeRateAndBitrate() {
        #expect(PublishCommand.Quality.low.format == CameraFormat(width: 640, height: 360, framesPerSecond: 15))
        #expect(PublishCommand.Quality.high.format == .h720p_w1280p)
        #expect(PublishCommand.Quality.high.bitrate(for: .h720p_w1280p) == 2_250_000)
        #expect(PublishCommand.Quality.med.bitrate(for: .h360p_w640p) == 600_000)
    }

    @Test(arguments: [
        ["room-1"],
        ["--name", "Bot"],
        ["room-1", "--name", "Bot", "--codec", "vp9"],
        ["room-1", "--name", "Bot", "--quality", "ultra"],
        ["room-1", "--name", "Bot", "--camera", "clip.mp4"],
        ["room-1", "--name", "Bot", "--mic", "song.mp3"],
        ["room-1", "--name", "Bot", "--camera", "none", "--mic", "none"],
        ["room-1", "--name", "Bot", "--server", "ftp://x"],
        ["room-1", "--name", "   "],
    ])
    func whatCannotBePublishedIsAUsageError(arguments: [String]) {
        #expect(Revue.main(["publish"] + arguments, environment: [:]) == 2, "\(arguments)")
    }

    @Test func helpNamesEveryOption() {
        #expect(Revue.main(["publish", "--help"]) == 0)
        let help = PublishCommand.spec.helpText
        for option in ["--name", "--camera", "--mic", "--codec", "--quality", "--server", "--token", "--process-audio", "--seconds"] {
            #expect(help.contains(option), "\(option)")
        }
    }
}
