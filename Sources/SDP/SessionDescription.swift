/// A whole SDP offer or answer (RFC 8866 §5) with the session-level attributes WebRTC uses
/// typed, and its media sections. Attributes Revue does not know are kept in `attributes`.
///
/// ```
/// v=0
/// o=<username> <sess-id> <sess-version> <nettype> <addrtype> <unicast-address>
/// s=<session name>
/// t=<start-time> <stop-time>
/// a=...                                   session-level attributes
/// m=<media> <port> <proto> <fmt> ...      then one media section per m= line
/// ```
/// `init(parsing:)` takes CRLF or LF line endings; `serialize()` writes CRLF (RFC 8866 §5).
/// Round trips keep the model: `SessionDescription(parsing: d.serialize()) == d`.
public struct SessionDescription: Sendable, Equatable {
    /// `v=`, always 0.
    public var version: Int
    /// The `o=` line.
    public var origin: Origin
    /// `s=`; WebRTC writes `-`.
    public var sessionName: String
    /// The first `t=` value; WebRTC writes `0 0`.
    public var timing: String
    /// A session-level `c=` line.
    public var connection: Connection?
    /// `i=`, `u=`, `e=`, `p=`, `b=`, `z=`, `k=`, `r=`, extra `t=` and unknown lines, in order.
    public var otherLines: [SDPLine]

    /// `a=ice-lite` (RFC 8839 §5.3): the writer only answers connectivity checks. Session level only.
    public var iceLite: Bool
    /// `a=group` lines, such as BUNDLE (RFC 9143 §7.1).
    public var groups: [MediaGroup]
    /// `a=msid-semantic`.
    public var msidSemantic: MSIDSemantic?
    /// Session-level `a=fingerprint` lines (Firefox writes them here only).
    public var fingerprints: [Fingerprint]
    /// Session-level `a=ice-ufrag`.
    public var iceUfrag: String?
    /// Session-level `a=ice-pwd`.
    public var icePwd: String?
    /// Session-level `a=ice-options` tokens.
    public var iceOptions: [String]
    /// Session-level `a=setup`.
    public var setup: SetupRole?
    /// `a=extmap-allow-mixed` (RFC 8285 §6): one-byte and two-byte extensions may be mixed.
    public var extmapAllowMixed: Bool
    /// A session-level direction (Firefox writes `a=sendrecv` here).
    public var direction: MediaDirection?
    /// Session-level attributes Revue does not interpret, in order.
    public var attributes: [SDPAttribute]
    /// The media sections in m-line order.
    public var media: [MediaDescription]

    /// An empty description with the lines every SDP starts with.
    public init(origin: Origin, sessionName: String = "-", timing: String = "0 0", media: [MediaDescription] = []) {
        version = 0
        self.origin = origin
        self.sessionName = sessionName
        self.timing = timing
        connection = nil
        otherLines = []
        iceLite = false
        groups = []
        msidSemantic = nil
        fingerprints = []
        iceUfrag = nil
        icePwd = nil
        iceOptions = []
        setup = nil
        extmapAllowMixed = false
        direction = nil
        attributes = []
        self.media = media
    }

    /// Parses an SDP text. Liberal about line endings, blank lines, attribute order and unknown
    /// attributes; throws, naming the line, on anything malformed that Revue relies on.
    public init(parsing text: String, limits: SDPLimits = SDPLimits()) throws(SDPError) {
        self = try SDPParser.parse(text, limits: limits)
    }

    /// The description as SDP text with CRLF line endings.
    public func serialize() -> String { SDPWriter.write(self) }

    /// The mids of the first BUNDLE group, or nil when there is none.
    public var bundleGroup: [String]? { groups.first { $0.semantics.uppercased() == "BUNDLE" }?.mids }

    /// The ICE ufrag that applies to a media section: its own, else the session's.
    public func iceUfrag(of media: MediaDescription) -> String? { media.iceUfrag ?? iceUfrag }

    /// The ICE password that applies to a media section: its own, else the session's.
    public func icePwd(of media: MediaDescription) -> String? { media.icePwd ?? icePwd }

    /// The fingerprints that apply to a media section: its own, else the session's.
    public func fingerprints(of media: MediaDescription) -> [Fingerprint] {
        media.fingerprints.isEmpty ? fingerprints : media.fingerprints
    }

    /// The DTLS role that applies to a media section: its own, else the session's.
    public func setup(of media: MediaDescription) -> SetupRole? { media.setup ?? setup }

    /// The direction that applies to a media section: its own, else the session's, else sendrecv.
    public func direction(of media: MediaDescription) -> MediaDirection { media.direction ?? direction ?? .sendrecv }
}
