/// The `a=ssrc:<ssrc> <attribute>[:<value>]` lines of one SSRC (RFC 5576 §4.1), in order.
/// WebRTC peers write `cname` (RFC 3550 §6.5.1) and, before unified plan's `a=msid`,
/// `msid`, `mslabel` and `label`.
public struct SSRCDescription: Sendable, Equatable {
    /// The SSRC.
    public var ssrc: UInt32
    /// Its attributes in order.
    public var attributes: [SDPAttribute]

    /// An SSRC with attributes as written.
    public init(ssrc: UInt32, attributes: [SDPAttribute]) {
        self.ssrc = ssrc
        self.attributes = attributes
    }

    /// An SSRC with its CNAME and, optionally, msid attributes.
    public init(ssrc: UInt32, cname: String, msid: MSID? = nil) {
        self.ssrc = ssrc
        attributes = [SDPAttribute(name: "cname", value: cname)]
        if let msid { attributes.append(SDPAttribute(name: "msid", value: msid.text)) }
    }

    /// The RTCP CNAME: one per participant, which is what ties its audio and video for lip-sync.
    public var cname: String? { attributes.first { $0.name == "cname" }?.value }

    /// The `msid` attribute of the SSRC, if any.
    public var msid: MSID? { attributes.first { $0.name == "msid" }?.value.flatMap(MSID.init(parsing:)) }
}
