/// Writes the server's offers for a subscriber connection: the server offers each participant
/// the tracks it should receive (as mediasoup and Janus's videoroom do), and reads the answers.
///
/// Every track gets a `sendonly` m-section with its one codec (and RTX), `a=msid` and `a=ssrc`
/// lines; `setup:actpass` lets the browser answer `active`, so the server stays the DTLS server.
/// A track that is gone keeps its m-section as `inactive`, because later offers must keep the
/// m-line order of earlier ones (RFC 8829 §5.2.2).
public struct OfferBuilder: Sendable {
    /// The header extensions to offer.
    public var capabilities: Capabilities
    /// The server's ICE credentials, fingerprint and candidate.
    public var transport: TransportParameters
    /// The `o=` session id, kept for the life of the connection.
    public var sessionID: UInt64
    /// The SCTP port of the data channel section.
    public var sctpPort: UInt16
    /// The largest data channel message the server receives.
    public var maxMessageSize: UInt64

    /// A builder for one subscriber connection's offers.
    public init(capabilities: Capabilities = .revue, transport: TransportParameters, sessionID: UInt64,
                sctpPort: UInt16 = 5000, maxMessageSize: UInt64 = 262_144)
    {
        self.capabilities = capabilities
        self.transport = transport
        self.sessionID = sessionID
        self.sctpPort = sctpPort
        self.maxMessageSize = maxMessageSize
    }

    /// An offer with the given tracks, and a data channel section when `dataChannelMid` is set.
    ///
    /// With `previous` (the last offer of this connection), its m-sections keep their places:
    /// a listed track reuses its mid's section, an unlisted one becomes `inactive`, the data
    /// channel stays; new tracks and a new data channel section are appended. The session
    /// version is the previous one plus one.
    public func offer(tracks: [OutgoingTrack], dataChannelMid: String? = nil,
                      previous: SessionDescription? = nil) throws(NegotiationError) -> SessionDescription
    {
        try transport.validate()
        var mids = Set<String>()
        for track in tracks {
            guard !track.mid.isEmpty, mids.insert(track.mid).inserted else {
                throw NegotiationError(mid: track.mid, "every track needs its own non-empty mid")
            }
            guard track.kind == .audio || track.kind == .video else { throw NegotiationError(mid: track.mid, "a track is audio or video") }
            guard track.rtxPayloadType != track.payloadType else { throw NegotiationError(mid: track.mid, "the RTX payload type equals the media payload type") }
            if track.rtxSSRC != nil, track.rtxPayloadType == nil {
                throw NegotiationError(mid: track.mid, "an RTX SSRC without an RTX payload type")
            }
        }
        if let dataChannelMid, mids.contains(dataChannelMid) {
            throw NegotiationError(mid: dataChannelMid, "the data channel's mid is also a track's")
        }

        var sections: [MediaDescription] = []
        var placed = Set<String>()
        var hasDataChannel = false
        for old in previous?.media ?? [] {
            guard let mid = old.mid else { throw NegotiationError("the previous offer has an m-section without a mid") }
            if let track = tracks.first(where: { $0.mid == mid }) {
                guard track.kind == old.kind else {
                    throw NegotiationError(mid: mid, "was m=\(old.kind) in the previous offer and cannot become \(track.kind) (RFC 8829 §5.2.2)")
                }
                sections.append(section(for: track))
            } else if old.kind == .application {
                sections.append(dataChannelSection(mid: mid))
                hasDataChannel = true
            } else {
                sections.append(stopped(old))
            }
            placed.insert(mid)
        }
        for track in tracks where !placed.contains(track.mid) { sections.append(section(for: track)) }
        if let dataChannelMid, !placed.contains(dataChannelMid) {
            guard !hasDataChannel else { throw NegotiationError(mid: dataChannelMid, "the connection already has a data channel section") }
            sections.append(dataChannelSection(mid: dataChannelMid))
        }

        let version = previous.map { $0.origin.sessionVersion &+ 1 } ?? 1
        var offer = SessionDescription(origin: Origin(sessionID: sessionID, sessionVersion: version), media: sections)
        offer.iceLite = true
        offer.groups = [MediaGroup(semantics: "BUNDLE", mids: sections.filter { !$0.isRejected }.compactMap(\.mid))]
        offer.msidSemantic = MSIDSemantic(semantic: "WMS", identifiers: ["*"])
        return offer
    }

    /// Reads a subscriber's answer. Its setup must be `active`: the server is the DTLS server.
    public func negotiate(answer: SessionDescription, to offer: SessionDescription) throws(NegotiationError) -> Negotiation {
        try AnswerReader.negotiate(answer: answer, to: offer, allowedSetups: [.active],
                                   role: "the Revue server is always the DTLS server, so a subscriber must answer active")
    }

    private func section(for track: OutgoingTrack) -> MediaDescription {
        var section = MediaDescription(kind: track.kind, proto: "UDP/TLS/RTP/SAVPF", formats: [])
        section.codecs = [track.codec.offeredCodec(payloadType: track.payloadType)]
        if let rtx = track.rtxPayloadType {
            section.codecs.append(RTPCodec(payloadType: rtx, name: "rtx", clockRate: track.codec.clockRate, formatParameters: "apt=\(track.payloadType)"))
        }
        section.formats = section.codecs.map { String($0.payloadType) }
        section.mid = track.mid
        section.direction = .sendonly
        section.extensions = capabilities.headerExtensions(for: track.kind)
            .filter { $0.uri != HeaderExtension.rtpStreamID && $0.uri != HeaderExtension.repairedRTPStreamID }
            .map { HeaderExtension(id: $0.id, uri: $0.uri) }
        section.rtcpMux = true
        section.rtcpReducedSize = true
        track.announce(in: &section)
        transport.apply(to: &section, setup: .actpass)
        return section
    }

    /// A removed track's section: same place, codecs and mid, nothing sent (RFC 8829 §5.2.2).
    private func stopped(_ old: MediaDescription) -> MediaDescription {
        var section = old
        section.direction = .inactive
        section.msids = []
        section.ssrcs = []
        section.ssrcGroups = []
        if !old.isRejected { transport.apply(to: &section, setup: .actpass) }
        return section
    }

    private func dataChannelSection(mid: String) -> MediaDescription {
        var section = MediaDescription(kind: .application, proto: "UDP/DTLS/SCTP", formats: ["webrtc-datachannel"])
        section.mid = mid
        section.sctpPort = sctpPort
        section.maxMessageSize = maxMessageSize
        transport.apply(to: &section, setup: .actpass)
        return section
    }
}
