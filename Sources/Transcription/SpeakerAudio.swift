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
    /// Whether the transcript goes on without this file when it cannot be read (a track a killed
    /// writer left unreadable: its part says so), rather than failing.
    public var mayBeUnreadable: Bool

    public init(path: String, participantId: String, participantName: String, offset: Double = 0, followingTimestamps: Bool = false,
                mayBeUnreadable: Bool = false)
    {
        self.followingTimestamps = followingTimestamps
        self.mayBeUnreadable = mayBeUnreadable
        self.path = path
        self.participantId = participantId
        self.participantName = participantName
        self.offset = offset
    }
}
