import JobSpec
/// A participant of a session with their time log: one entry per stay, `end` null while they
/// are still in (`GET /v2/sessions/{id}/participants`).
public struct SessionParticipantView: Codable, Sendable, Equatable {
    public struct TimeLog: Codable, Sendable, Equatable {
        public var start: String
        @NullEncoded public var end: String?

        public init(start: String, end: String?) {
            self.start = start
            self.end = end
        }
    }

    /// What they publish now (Revue's addition, live participants only).
    public struct Media: Codable, Sendable, Equatable {
        public var mic: Bool
        public var webcam: Bool
        public var screenShare: Bool

        public init(mic: Bool, webcam: Bool, screenShare: Bool) {
            self.mic = mic
            self.webcam = webcam
            self.screenShare = screenShare
        }
    }

    /// How well their media gets through (Revue's addition, live participants only): `score`
    /// good, fair, poor or unknown; losses are fractions (0 to 1), the round trip in seconds.
    public struct Quality: Codable, Sendable, Equatable {
        public var score: String
        public var uplinkLoss: Double?
        public var downlinkLoss: Double?
        public var roundTripTime: Double?

        public init(score: String, uplinkLoss: Double?, downlinkLoss: Double?, roundTripTime: Double?) {
            self.score = score
            self.uplinkLoss = uplinkLoss
            self.downlinkLoss = downlinkLoss
            self.roundTripTime = roundTripTime
        }
    }

    public var participantId: String
    public var name: String
    public var timelog: [TimeLog]
    public var mode: String?
    public var media: Media?
    public var quality: Quality?

    public init(participantId: String, name: String, timelog: [TimeLog], mode: String? = nil, media: Media? = nil, quality: Quality? = nil) {
        self.participantId = participantId
        self.name = name
        self.timelog = timelog
        self.mode = mode
        self.media = media
        self.quality = quality
    }
}
