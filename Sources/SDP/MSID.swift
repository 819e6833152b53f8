/// `a=msid:<stream id> [<track id>]` (RFC 8830 §2): which MediaStream a track belongs to.
/// One stream id per participant groups its tracks on the receiving side.
public struct MSID: Sendable, Equatable {
    public var streamID: String
    public var trackID: String?

    public init(streamID: String, trackID: String? = nil) {
        self.streamID = streamID
        self.trackID = trackID
    }

    init?(parsing value: String) {
        let parts = value.split(separator: " ", omittingEmptySubsequences: true)
        guard let first = parts.first, parts.count <= 2 else { return nil }
        streamID = String(first)
        trackID = parts.count == 2 ? String(parts[1]) : nil
    }

    var text: String { trackID.map { "\(streamID) \($0)" } ?? streamID }
}
