/// An RTP stream a peer announced with `a=ssrc` lines: its SSRC, the RTX SSRC paired with it by
/// `a=ssrc-group:FID` (RFC 4588 §8.3), and its CNAME and msid.
public struct SignalledStream: Sendable, Equatable {
    /// The media SSRC.
    public var ssrc: UInt32
    /// Its RTX SSRC, if paired.
    public var rtxSSRC: UInt32?
    /// Its CNAME.
    public var cname: String?
    /// Its msid attribute.
    public var msid: MSID?

    /// A signalled stream.
    public init(ssrc: UInt32, rtxSSRC: UInt32? = nil, cname: String? = nil, msid: MSID? = nil) {
        self.ssrc = ssrc
        self.rtxSSRC = rtxSSRC
        self.cname = cname
        self.msid = msid
    }

    /// The streams of a media section. With `a=ssrc-group:SIM` they are its layers in order;
    /// otherwise every SSRC that is not the second member of an FID or FEC-FR group.
    static func streams(of media: MediaDescription) -> [SignalledStream] {
        var rtxOf: [UInt32: UInt32] = [:]
        var secondary = Set<UInt32>()
        for group in media.ssrcGroups where group.ssrcs.count >= 2 {
            switch group.semantics.uppercased() {
            case "FID":
                if rtxOf[group.ssrcs[0]] == nil { rtxOf[group.ssrcs[0]] = group.ssrcs[1] }
                secondary.formUnion(group.ssrcs.dropFirst())
            case "FEC-FR":
                secondary.formUnion(group.ssrcs.dropFirst())
            default:
                break
            }
        }
        var primaries: [UInt32]
        if let sim = media.ssrcGroups.first(where: { $0.semantics.uppercased() == "SIM" }) {
            primaries = sim.ssrcs
        } else {
            primaries = media.ssrcs.map(\.ssrc).filter { !secondary.contains($0) }
            for group in media.ssrcGroups where group.semantics.uppercased() == "FID" && !group.ssrcs.isEmpty {
                if !primaries.contains(group.ssrcs[0]) { primaries.append(group.ssrcs[0]) }
            }
        }
        var seen = Set<UInt32>()
        return primaries.compactMap { ssrc in
            guard seen.insert(ssrc).inserted else { return nil }
            let description = media.ssrcs.first { $0.ssrc == ssrc }
            return SignalledStream(ssrc: ssrc, rtxSSRC: rtxOf[ssrc], cname: description?.cname, msid: description?.msid)
        }
    }
}
