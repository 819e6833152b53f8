import JobSpec
import Media

/// One utterance of live transcription (docs/TRANSCRIPTION.md): who said it, what, and when, in
/// seconds since 1970 (the room's clock is the server's wall clock), and when on the speaker's
/// own clock if known (`senderClock`). The hidden transcriber sends
/// it as a client message; the server sends it on to everyone in the room. The same value as a
/// caption (`Caption`), on the room's clock rather than a recording's.
public typealias TranscriptionLine = Caption

extension Caption {
    public static let maximumTextBytes = 4_096
    /// The longest a line may last: utterances are cut at 25 s (`VoiceActivityDetector`).
    public static let longest = 3_600.0

    var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = ["participantId": .string(participantID), "name": .string(name), "text": .string(text),
                                           "start": .number(start), "end": .number(end)]
        if let senderClock {
            fields["senderClock"] = .object(["start": .number(senderClock.lowerBound), "end": .number(senderClock.upperBound)])
        }
        return fields
    }

    init(reading reader: FieldReader) throws(SignalingError) {
        let participantID = try reader.identifier("participantId")
        let name = try reader.optionalString("name", maxLength: SignalingProtocol.maximumNameLength) ?? ""
        let text = try reader.string("text", maxLength: Self.maximumTextBytes)
        let start = try reader.number("start")
        let end = try reader.number("end")
        guard start.isFinite, end.isFinite, start >= 0, end >= start, end - start <= Self.longest else {
            throw reader.failure("start and end must be times with end not before start, at most \(Int(Self.longest)) s apart")
        }
        var senderClock: ClosedRange<Double>?
        if let span = try reader.optionalObject("senderClock") {
            // Any finite time: a sender's clock need not be a wall clock (RFC 3550 §6.4.1).
            let (from, to) = (try span.number("start"), try span.number("end"))
            guard to >= from, to - from <= Self.longest else {
                throw span.failure("start and end must be times with end not before start, at most \(Int(Self.longest)) s apart")
            }
            senderClock = from...to
        }
        self.init(participantID: participantID, name: name, text: text, start: start, end: end, senderClock: senderClock)
    }
}
