import JobSpec

/// One utterance of live transcription (docs/TRANSCRIPTION.md): who said it, what, and when, in
/// seconds since 1970 (the room's clock is the server's wall clock). The hidden transcriber sends
/// it as a client message; the server sends it on to everyone in the room.
public struct TranscriptionLine: Sendable, Hashable {
    public static let maximumTextBytes = 4_096
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

    var fields: [String: JSONValue] {
        ["participantId": .string(participantID), "name": .string(name), "text": .string(text), "start": .number(start), "end": .number(end)]
    }

    init(reading reader: FieldReader) throws(SignalingError) {
        participantID = try reader.identifier("participantId")
        name = try reader.optionalString("name", maxLength: SignalingProtocol.maximumNameLength) ?? ""
        text = try reader.string("text", maxLength: Self.maximumTextBytes)
        start = try reader.number("start")
        end = try reader.number("end")
        guard start.isFinite, end.isFinite, start >= 0, end >= start else { throw reader.failure("start and end must be times with end not before start") }
    }
}
