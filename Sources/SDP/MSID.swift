/// `a=msid:<stream id> [<track id>]` (RFC 8830 §2): which MediaStream a track belongs to.
/// One stream id per participant groups its tracks on the receiving side.
public struct MSID: Sendable, Equatable {
    /// The MediaStream id; `-` for none.
    public var streamID: String
    /// The track id.
    public var trackID: String?

    /// An msid.
    public init(streamID: String, trackID: String? = nil) {
        self.streamID = streamID
        self.trackID = trackID
    }

    init?(parsing value: String) {
        let parts = value[...].fields()
        guard let first = parts.first, parts.count <= 2 else { return nil }
        streamID = String(first)
        trackID = parts.count == 2 ? String(parts[1]) : nil
    }

    var text: String { trackID.map { "\(streamID) \($0)" } ?? streamID }
}
