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
        guard start.isFinite, end.isFinite, start >= 0, end >= start else { throw reader.failure("start and end must be times with end not before start") }
        var senderClock: ClosedRange<Double>?
        if let span = try reader.optionalObject("senderClock") {
            let (from, to) = (try span.number("start"), try span.number("end"))
            guard from >= 0, to >= from else { throw span.failure("start and end must be times with end not before start") }
            senderClock = from...to
        }
        self.init(participantID: participantID, name: name, text: text, start: start, end: end, senderClock: senderClock)
    }
}
