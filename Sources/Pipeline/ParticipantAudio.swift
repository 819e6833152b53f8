/// One participant's own audio in one output block, before mixing: interleaved stereo 48 kHz
/// `samples` starting `offset` frames into the block, which starts at output sample `blockStart`
/// (sample n is media time n / 48 000) and is `blockFrames` long. Empty samples: they are in the
/// room and sent nothing for this block.
public struct ParticipantAudio: Sendable {
    public var participantID: String
    public var name: String
    public var samples: ArraySlice<Float>
    public var offset: Int
    public var blockFrames: Int
    public var blockStart: Int64
}
