/// One utterance as captions carry it: who said it, what, and when, in seconds on the clock of
/// whoever holds it (a room source's clock, which is the recording's media time).
public struct Caption: Sendable, Hashable {
    public var participantID: String
    public var name: String
    public var text: String
    public var start: Double
    public var end: Double
    /// The same span on the speaker's own clock, the NTP seconds of their RTCP sender reports
    /// (RFC 3550 §6.4.1), when the transcriber had one. Each receiver maps the speaker's audio
    /// through that clock with a delay of its own estimating; mapped the same way, a caption
    /// lands on the words it belongs to, where the shared wall clock could be a tenth of a
    /// second or more off (`MediaClock.mediaTime(participant:senderTime:)`).
    public var senderClock: ClosedRange<Double>?

    public init(participantID: String, name: String, text: String, start: Double, end: Double, senderClock: ClosedRange<Double>? = nil) {
        self.participantID = participantID
        self.name = name
        self.text = text
        self.start = start
        self.end = end
        self.senderClock = senderClock
    }
}
