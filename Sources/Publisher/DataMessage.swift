import DataChannel
import JobSpec

/// A data-channel message another participant sent (`send()` in the seeds), as the server
/// relays it: `{"from": participantId, "text": …}` on the channel it came on.
public struct DataMessage: Sendable, Hashable {
    /// Who sent it; empty when the server's wrapper was not there.
    public var from: String
    public var text: String
    /// Whether it came on the reliable, ordered channel (`revue`).
    public var reliable: Bool

    public init(from: String, text: String, reliable: Bool) {
        self.from = from
        self.text = text
        self.reliable = reliable
    }

    /// Reads the server's relay wrapper; anything else is taken as plain text from nobody.
    init(relayed payload: DataChannelPayload, reliable: Bool) {
        let text: String
        switch payload {
        case .text(let value): text = value
        case .binary(let bytes): text = String(decoding: bytes, as: UTF8.self)
        }
        if let json = try? JSONValue(parsing: Array(text.utf8)), let from = json["from"]?.stringValue, let body = json["text"]?.stringValue {
            self.init(from: from, text: body, reliable: reliable)
        } else {
            self.init(from: "", text: text, reliable: reliable)
        }
    }
}
