/// One speaker's audio to transcribe: a file and who is speaking in it, and where its first
/// sample falls on the transcript's clock (a participant who joined 40 s into a recording has
/// an offset of 40).
public struct SpeakerAudio: Sendable, Equatable {
    public var path: String
    public var participantId: String
    public var participantName: String
    public var offset: Double

    public init(path: String, participantId: String, participantName: String, offset: Double = 0) {
        self.path = path
        self.participantId = participantId
        self.participantName = participantName
        self.offset = offset
    }
}
