/// One utterance as captions carry it: who said it, what, and when, in seconds on the clock of
/// whoever holds it (a room source's clock, which is the recording's media time).
public struct Caption: Sendable, Hashable {
    public var participantID: String
    public var name: String
    public var text: String
    public var start: Double
    public var end: Double

    public init(participantID: String, name: String, text: String, start: Double, end: Double) {
        self.participantID = participantID
        self.name = name
        self.text = text
        self.start = start
        self.end = end
    }
}
