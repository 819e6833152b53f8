/// Writes the offers of Revue's own SDK and recorder, which offer to the server as full ICE
/// agents and DTLS clients, and reads the server's answers.
///
/// Each transceiver gets every codec of its kind from the capabilities with their own payload
/// types (opus 111, VP8 96/97, H.264 102/103), `setup:actpass`, `rtcp-mux`, the client's
/// candidates and `a=end-of-candidates` (no trickle), and the sections are BUNDLEd.
public struct ClientOfferBuilder: Sendable {
    /// The codecs and extensions to offer.
    public var capabilities: Capabilities
    /// The client's ICE credentials, fingerprint and candidates.
    public var transport: TransportParameters
    /// The `o=` session id.
    public var sessionID: UInt64

    /// A builder for one client connection's offers.
    public init(capabilities: Capabilities = .revue, transport: TransportParameters, sessionID: UInt64) {
        self.capabilities = capabilities
        self.transport = transport
        self.sessionID = sessionID
    }

    /// An offer for the transceivers in order, then a data channel section (SCTP port 5000,
    /// 262144-byte messages) when `dataChannelMid` is set, then `laterTransceivers`: sections
    /// added after the first offer go after the data channel, since a new offer keeps the
    /// earlier m-lines in their places (RFC 3264 §8).
    public func offer(transceivers: [ClientTransceiver], dataChannelMid: String? = nil, laterTransceivers: [ClientTransceiver] = [],
                      sessionVersion: UInt64 = 1) throws(NegotiationError) -> SessionDescription
    {
        try transport.validate()
        var mids = Set<String>()
        var sections: [MediaDescription] = []
        for transceiver in transceivers {
            guard !transceiver.mid.isEmpty, mids.insert(transceiver.mid).inserted else {
                throw NegotiationError(mid: transceiver.mid, "every transceiver needs its own non-empty mid")
            }
            sections.append(try section(for: transceiver))
        }
        if let dataChannelMid {
            guard mids.insert(dataChannelMid).inserted else { throw NegotiationError(mid: dataChannelMid, "the data channel's mid is also a transceiver's") }
            var section = MediaDescription(kind: .application, proto: "UDP/DTLS/SCTP", formats: ["webrtc-datachannel"])
            section.mid = dataChannelMid
            section.sctpPort = 5000
            section.maxMessageSize = 262_144
            transport.apply(to: &section, setup: .actpass)
            sections.append(section)
        }
        for transceiver in laterTransceivers {
            guard !transceiver.mid.isEmpty, mids.insert(transceiver.mid).inserted else {
                throw NegotiationError(mid: transceiver.mid, "every transceiver needs its own non-empty mid")
            }
            sections.append(try section(for: transceiver))
        }
        guard !sections.isEmpty else { throw NegotiationError("an offer needs at least one transceiver or a data channel") }
        var offer = SessionDescription(origin: Origin(sessionID: sessionID, sessionVersion: sessionVersion), media: sections)
        offer.groups = [MediaGroup(semantics: "BUNDLE", mids: sections.compactMap(\.mid))]
        offer.msidSemantic = MSIDSemantic(semantic: "WMS", identifiers: ["*"])
        return offer
    }

    /// One transceiver's m-section: its codecs (each with RTX where the capability has it), its
    /// extensions, and what it sends.
    private func section(for transceiver: ClientTransceiver) throws(NegotiationError) -> MediaDescription {
        let codecs = transceiver.codecs?.filter { $0.kind == transceiver.kind } ?? capabilities.codecs(for: transceiver.kind)
        guard !codecs.isEmpty else { throw NegotiationError(mid: transceiver.mid, "no codec for m=\(transceiver.kind)") }
        var section = MediaDescription(kind: transceiver.kind, proto: "UDP/TLS/RTP/SAVPF", formats: [])
        for capability in codecs {
            section.codecs.append(capability.offeredCodec(payloadType: capability.payloadType))
            if capability.rtx, let rtx = capability.rtxPayloadType {
                section.codecs.append(RTPCodec(payloadType: rtx, name: "rtx", clockRate: capability.clockRate,
                                               formatParameters: "apt=\(capability.payloadType)"))
            }
        }
        section.formats = section.codecs.map { String($0.payloadType) }
        section.mid = transceiver.mid
        section.direction = transceiver.direction
        // The RID extensions (RFC 8852 §3) only where the section is simulcast: they name
        // its layers, and a section without layers has nothing to put in them.
        let layers = transceiver.direction.sends ? transceiver.sender?.layers ?? [] : []
        section.extensions = capabilities.headerExtensions(for: transceiver.kind)
            .filter { !layers.isEmpty || ($0.uri != HeaderExtension.rtpStreamID && $0.uri != HeaderExtension.repairedRTPStreamID) }
            .map { HeaderExtension(id: $0.id, uri: $0.uri) }
        section.rtcpMux = true
        section.rtcpReducedSize = true
        if transceiver.direction.sends, let sender = transceiver.sender {
            section.msids = [sender.msid]
            let streams = layers.isEmpty ? [(sender.ssrc, sender.rtxSSRC)] : layers.map { ($0.ssrc, $0.rtxSSRC) }
            for (ssrc, rtx) in streams {
                section.ssrcs.append(SSRCDescription(ssrc: ssrc, cname: sender.cname, msid: sender.msid))
                if let rtx {
                    section.ssrcGroups.append(SSRCGroup(semantics: "FID", ssrcs: [ssrc, rtx]))
                    section.ssrcs.append(SSRCDescription(ssrc: rtx, cname: sender.cname, msid: sender.msid))
                }
            }
            if !layers.isEmpty {
                // Simulcast as Chromium offers it (RFC 8851 §4, RFC 8853 §5.1): one
                // `a=rid:<id> send` per layer and one stream per layer in `a=simulcast:send`.
                // The SSRC lines are Firefox's addition, kept so the server has the CNAME the
                // sender reports carry (it matches layers to packets by RID either way).
                section.rids = layers.map { RID(id: $0.rid, direction: .send) }
                section.simulcast = Simulcast(send: layers.map { [Simulcast.Stream(rid: $0.rid)] })
            }
        }
        transport.apply(to: &section, setup: .actpass)
        return section
    }

    /// Reads the server's answer. Its setup may be `passive` (the client is then the DTLS client)
    /// or `active`, never `actpass`.
    public func negotiate(answer: SessionDescription, to offer: SessionDescription) throws(NegotiationError) -> Negotiation {
        try AnswerReader.negotiate(answer: answer, to: offer, allowedSetups: [.active, .passive],
                               role: "an answer to a client must say active or passive")
    }
}
