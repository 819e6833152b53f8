import JobSpec

/// One utterance of live translation (docs/TRANSCRIPTION.md, "Live translation"): the room's
/// transcription line, in the language a listener chose. The server sends it to each listener
/// who chose `language`; times are the transcription line's (seconds since 1970).
public struct TranslationLine: Sendable, Hashable {
    public static let maximumTextBytes = 8_192
    public var participantID: String
    public var name: String
    /// The language it is in (BCP 47, such as `es`).
    public var language: String
    public var text: String
    public var start: Double
    public var end: Double

    public init(participantID: String, name: String, language: String, text: String, start: Double, end: Double) {
        self.participantID = participantID
        self.name = name
        self.language = language
        self.text = text
        self.start = start
        self.end = end
    }

    var fields: [String: JSONValue] {
        ["participantId": .string(participantID), "name": .string(name), "language": .string(language), "text": .string(text),
         "start": .number(start), "end": .number(end)]
    }

    init(reading reader: FieldReader) throws(SignalingError) {
        participantID = try reader.identifier("participantId")
        name = try reader.optionalString("name", maxLength: SignalingProtocol.maximumNameLength) ?? ""
        language = try TranslationLine.language(reader)
        text = try reader.string("text", maxLength: Self.maximumTextBytes)
        start = try reader.number("start")
        end = try reader.number("end")
        guard start.isFinite, end.isFinite, start >= 0, end >= start else { throw reader.failure("start and end must be times with end not before start") }
    }

    /// A language code: 2 to 16 letters, digits and hyphens (`es`, `pt-BR`).
    static func language(_ reader: FieldReader) throws(SignalingError) -> String {
        let language = try reader.string("language", maxLength: 16)
        guard language.count >= 2, language.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" }) else {
            throw reader.failure("language must be a language code such as es or pt-BR")
        }
        return language
    }
}
