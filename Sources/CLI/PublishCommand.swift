import Foundation
import Capture
import Publisher

/// `revue publish ROOM --name NAME`: joins a live room as a participant and publishes a camera
/// and a microphone until stopped, a bot for demos, ops checks and load tests (issue 12 item 7).
/// It is `RoomPublisher` driven from the command line (docs/PUBLISHING.md).
enum PublishCommand: RevueCommand {
    static let spec = CommandSpec(
        ["publish"],
        summary: "Join a live room and publish a camera and a microphone until stopped.",
        discussion: """
            Joins ROOM as NAME (SEND_AND_RECV, seen by everyone in the room) and publishes video and audio: a test
            pattern (NAME's colour, a moving square, NAME written on it) or a video file (y4m, or a file Revue's FFmpeg
            reads: MP4, WebM, MKV…), looped; a tone or a sound file (wav, MP3, AAC, Opus…, resampled to mono
            48 kHz), looped. Video is VP8 (libvpx) or H.264 (libx264, Constrained Baseline), audio Opus; the
            video bitrate follows the server's REMB estimate. A status line every few seconds says what was sent.
            It stops at SIGINT or SIGTERM (leaving the room with an RTCP BYE), after --seconds, or when the room
            closes. docs/PUBLISHING.md.
            """,
        options: [
            OptionSpec("name", value: "NAME", help: "The name the others see."),
            OptionSpec("id", value: "ID", help: "The participant id to ask for (without it, the server picks one)."),
            OptionSpec("camera", value: "FILE|pattern", help: "A video file (y4m, MP4, WebM, …), or pattern for a test pattern; none publishes no video.",
                       default: "pattern"),
            OptionSpec("mic", value: "FILE|tone|alsa:DEVICE",
                       help: "A sound file (wav, or a file Revue's FFmpeg reads: MP3, AAC, Opus, …), tone for a tone, or alsa:DEVICE for an ALSA "
                           + "capture device (alsa:default, alsa:pulse, a name `revue devices` lists); none publishes no audio.",
                       default: "tone"),
            OptionSpec("codec", value: "CODEC", help: "The video codec.", default: "vp8", allowed: PublishedVideoCodec.allCases.map(\.rawValue)),
            OptionSpec("quality", value: "QUALITY",
                       help: "low: 640x360 at 15 fps, 300 kb/s; med: 640x360 at 30 fps, 600 kb/s; high: 1280x720 at 30 fps, 1.5 Mb/s "
                           + "(a file camera keeps its size and rate, with half, once or 1.5 times its size's bitrate).",
                       default: "med", allowed: Quality.allCases.map(\.rawValue)),
            OptionSpec("process-audio", help: "Run the microphone through WebRTC's audio processing: noise suppression, gain control, high-pass."),
            OptionSpec("server", value: "URL",
                       help: "The room server: its public URL (signalling at URL/v2/rtc), or a ws:// signalling URL.",
                       environment: "REVUE_PUBLIC_URL", default: "http://127.0.0.1:8080"),
            OptionSpec("token", value: "TOKEN",
                       help: "Join with this token (role rtc, allow_join). Without it, one is signed with the server's API credentials: "
                           + "REVUE_API_KEY / REVUE_API_SECRET, or HOME/api-credentials.json."),
            CommonOptions.home,
            OptionSpec("seconds", value: "N", help: "Stop after N seconds (without it: at SIGINT or SIGTERM, or when the room closes)."),
        ] + CommonOptions.loggingForPeople,
        positionals: [PositionalSpec("ROOM", help: "The room's id.")])

    /// Seconds between status lines.
    static let statusInterval = 3.0

    /// `--quality`: the test pattern's size and rate, and the video bitrate.
    enum Quality: String, CaseIterable {
        case low
        case med
        case high

        var format: CameraFormat {
            switch self {
            case .low: CameraFormat(width: 640, height: 360, framesPerSecond: 15)
            case .med: .h360p_w640p
            case .high: .h720p_w1280p
            }
        }

        /// Bits per second for a camera of `format`: this quality's share of its size's rate.
        func bitrate(for format: CameraFormat) -> Int {
            switch self {
            case .low: format.defaultBitrate / 2
            case .med: format.defaultBitrate
            case .high: format.defaultBitrate * 3 / 2
            }
        }
    }

    /// What the command line asked for, checked before anything joins.
    struct Request {
        var roomID: String
        var name: String
        var participantID: String?
        var camera: String
        var microphone: String
        var codec: PublishedVideoCodec
        var quality: Quality
        var processAudio: Bool
        var signalingURL: String
        var seconds: Double?
    }

    static func request(_ arguments: ParsedArguments) throws(UsageError) -> Request {
        guard let roomID = arguments.positional(0) else { throw UsageError("ROOM is required", command: spec.name) }
        guard let name = arguments.value("name"), !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw UsageError("--name NAME is required", command: spec.name)
        }
        let codec = PublishedVideoCodec(rawValue: arguments.value("codec") ?? "vp8") ?? .vp8
        let quality = Quality(rawValue: arguments.value("quality") ?? "med") ?? .med
        let camera = arguments.value("camera") ?? "pattern", microphone = arguments.value("mic") ?? "tone"
        if camera == "none" && microphone == "none" { throw UsageError("nothing to publish: --camera none and --mic none", command: spec.name) }
        return Request(roomID: roomID, name: name, participantID: arguments.value("id"), camera: camera, microphone: microphone, codec: codec,
                       quality: quality, processAudio: arguments.flag("process-audio"),
                       signalingURL: try CaptureCommand.signalingURL(arguments.value("server") ?? "http://127.0.0.1:8080"),
                       seconds: try arguments.seconds("seconds"))
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let request = try request(arguments)
        // Before joining, so a stop while joining still leaves cleanly.
        StopSignal.install()
        let token = try arguments.value("token") ?? participantToken(roomID: request.roomID, participantID: request.participantID,
                                                                     home: ServiceSetup.home(arguments))
        let camera = try makeCamera(request)
        let microphone = try makeMicrophone(request)
        let bitrate = camera.map { request.quality.bitrate(for: $0.format) }
        let publisher: RoomPublisher
        do {
            publisher = try RoomPublisher(configuration: .init(signalingURL: request.signalingURL, roomID: request.roomID, token: token,
                                                               participantName: request.name, participantID: request.participantID,
                                                               camera: camera, microphone: microphone, videoCodec: request.codec,
                                                               videoBitrate: bitrate))
        } catch {
            throw PublishError("cannot join room \(request.roomID) at \(request.signalingURL): \(error)")
        }
        defer { publisher.leave() }
        Console.error("publish: joined room \(request.roomID) as \(request.name) (\(publisher.participantID), session \(publisher.sessionID)); "
            + "video " + (camera.map { "\(request.codec.encodingName) \($0.format) at \((bitrate ?? 0) / 1000) kb/s" } ?? "none")
            + ", audio " + (microphone == nil ? "none" : "Opus 32 kb/s" + (request.processAudio ? " (processed)" : "")))
        guard publisher.waitUntilPublishing(timeout: 20) else {
            throw PublishError("joined room \(request.roomID) but could not publish: \(publisher.failure ?? "no connection within 20 s")")
        }
        // Tell the room what is on, as the SDK and the join page do: their users see this bot's
        // camera and microphone as enabled streams (onStreamEnabled) only from this report.
        publisher.announceMedia()
        let started = Date()
        var last = (at: started, statistics: publisher.currentStatistics)
        while !StopSignal.requested && publisher.failure == nil {
            Thread.sleep(forTimeInterval: 0.1)
            let now = Date()
            if let seconds = request.seconds, now.timeIntervalSince(started) >= seconds { break }
            if now.timeIntervalSince(last.at) >= statusInterval {
                let current = publisher.currentStatistics
                Console.print(status(current, since: last.statistics, over: now.timeIntervalSince(last.at), elapsed: now.timeIntervalSince(started)))
                last = (now, current)
            }
        }
        let failure = publisher.failure
        publisher.leave()
        let statistics = publisher.currentStatistics
        Console.print(summary(statistics, elapsed: Date().timeIntervalSince(started)))
        if let failure {
            Console.error("publish: stopped: \(failure)")
            return 1
        }
        return 0
    }

    static func makeCamera(_ request: Request) throws -> (any CameraSource)? {
        switch request.camera {
        case "none": return nil
        case "pattern": return try TestPatternCamera(name: request.name, rgb: colour(of: request.name), format: request.quality.format)
        default:
            do {
                if request.camera.lowercased().hasSuffix(".y4m") { return try Y4MFileCamera(path: request.camera) }
                // Any other file through libavformat, at its own size and 30 fps.
                return try MediaFileCamera(path: request.camera)
            } catch {
                throw UsageError("--camera \(request.camera): \(error)", command: spec.name)
            }
        }
    }

    static func makeMicrophone(_ request: Request) throws -> (any MicrophoneSource)? {
        let source: any MicrophoneSource
        switch request.microphone {
        case "none": return nil
        case "tone": source = ToneMicrophone(frequency: 220 + Double(colour(of: request.name) % 5) * 110, amplitude: 0.2)
        default:
            do {
                if let device = ALSADevice.name(fromID: request.microphone) {
                    source = try ALSAMicrophone(device: device)
                } else if request.microphone.lowercased().hasSuffix(".wav"), let wav = try? WAVFileMicrophone(path: request.microphone) {
                    source = wav
                } else {
                    source = try MediaFileMicrophone(path: request.microphone)
                }
            } catch {
                throw UsageError("--mic \(request.microphone): \(error)", command: spec.name)
            }
        }
        guard request.processAudio else { return source }
        return try ProcessedMicrophone(source: source, settings: .init(noiseSuppression: true, gainControl: true, highPassFilter: true))
    }

    /// A colour of the name's own, so several bots in one room can be told apart.
    static func colour(of name: String) -> UInt32 {
        let palette: [UInt32] = [0xD02020, 0x2040D0, 0x20A040, 0xD09020, 0x8030C0, 0x20A0B0]
        let hash = name.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
        return palette[Int(hash % UInt32(palette.count))]
    }

    /// A participant's token for the room, signed with the server's API credentials.
    static func participantToken(roomID: String, participantID: String?, home: String) throws -> String {
        guard let authenticator = try ServiceSetup.existingAuthenticator(home: home) else {
            throw UsageError("no API credentials to sign a participant's token: give --token, set REVUE_API_KEY and REVUE_API_SECRET, "
                + "or use the --home of `revue serve` (\(home) has no api-credentials.json)", command: spec.name)
        }
        return try authenticator.token(roles: [.rtc], permissions: [.allowJoin], roomID: roomID, participantID: participantID)
    }

    /// The status line: time, frames and the bitrate over the last interval.
    static func status(_ current: RoomPublisher.Statistics, since previous: RoomPublisher.Statistics, over seconds: Double, elapsed: Double) -> String {
        let bitrate = Double(current.sender.bytesSent - previous.sender.bytesSent) * 8 / max(0.001, seconds)
        let frames = current.videoFramesEncoded - previous.videoFramesEncoded
        var line = String(format: "publish: %6.1f s  ", elapsed)
        if let codec = current.videoCodec {
            line += "\(codec) \(current.videoFramesEncoded) frames (" + String(format: "%.1f fps", Double(frames) / max(0.001, seconds))
                + ", \(current.keyframesEncoded) keyframes, \(current.videoFramesSkipped) skipped), target \(current.videoBitrate / 1000) kb/s  "
        }
        if current.audioFramesEncoded > 0 { line += "opus \(current.audioFramesEncoded) frames  " }
        line += String(format: "sent %.0f kb/s, ", bitrate / 1000) + "\(current.sender.packetsSent) packets, "
            + "\(current.sender.retransmissionsSent) retransmitted, \(current.sender.pliReceived + current.sender.firReceived) keyframe requests"
        if let estimate = current.sender.estimatedBitrate { line += ", REMB \(estimate / 1000) kb/s" }
        if let estimate = current.sender.transportEstimate { line += ", TWCC \(estimate / 1000) kb/s" }
        return line
    }

    /// What was sent in all.
    static func summary(_ statistics: RoomPublisher.Statistics, elapsed: Double) -> String {
        let bitrate = Double(statistics.sender.bytesSent) * 8 / max(0.001, elapsed)
        return "published " + String(format: "%.1f s: ", elapsed)
            + (statistics.videoCodec.map { "\($0) \(statistics.videoFramesEncoded) frames (\(statistics.keyframesEncoded) keyframes), " } ?? "")
            + "opus \(statistics.audioFramesEncoded) frames, \(statistics.sender.packetsSent) packets, "
            + String(format: "%.0f kb/s", bitrate / 1000) + ", \(statistics.sender.senderReportsSent) sender reports"
    }
}

/// Why publishing could not run: the message is for the person who ran it.
struct PublishError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
