import Foundation

/// One utterance live transcription heard (`onTranscriptionLine(_:)`): who said it, what, and
/// when on the server's clock. `onTranscriptionText(_:participantId:)` gets the same, shorter.
public struct TranscriptionText: Sendable, Hashable {
    public var participantId: String
    public var participantName: String
    public var text: String
    public var start: Date
    public var end: Date
}
