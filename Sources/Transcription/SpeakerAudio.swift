/// One speaker's audio to transcribe: a file and who is speaking in it, and where its first
/// sample falls on the transcript's clock (a participant who joined 40 s into a recording has
/// an offset of 40).
public struct SpeakerAudio: Sendable, Equatable {
    public var path: String
    public var participantId: String
    public var participantName: String
    public var offset: Double
    /// Whether the file's timestamps place its sound (a per-participant track, which has no
    /// packets while its sender was muted): its gaps are read as silence
    /// (`AudioFileReader.followingTimestamps`).
    public var followingTimestamps: Bool

    public init(path: String, participantId: String, participantName: String, offset: Double = 0, followingTimestamps: Bool = false) {
        self.followingTimestamps = followingTimestamps
        self.path = path
        self.participantId = participantId
        self.participantName = participantName
        self.offset = offset
    }
}
