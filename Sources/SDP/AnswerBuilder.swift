/// Answers a remote offer as Revue's ICE-lite server (JSEP RFC 8829 §5.3, RFC 3264 §6).
///
/// The answer mirrors the offer's m-sections and mids in order; accepts audio, video and one
/// data channel section inside the offer's BUNDLE group; keeps the offer's payload types and
/// extmap IDs (never renumbers); answers `setup:passive` (the server is always the DTLS server),
/// `rtcp-mux` and `a=ice-lite`; writes the same ICE credentials, fingerprints, host candidate and
/// `a=end-of-candidates` into every accepted section; and rejects (port 0) the rest, saying why.
public struct AnswerBuilder: Sendable {
    /// What Revue accepts.
    public var capabilities: Capabilities
    /// The server's ICE credentials, fingerprint and candidate.
    public var transport: TransportParameters
    /// The `o=` session id, kept for the life of the connection.
    public var sessionID: UInt64
    /// Increment for every new answer in the same session (RFC 8829 §5.3.1).
    public var sessionVersion: UInt64
    /// The SCTP port inside DTLS (RFC 8841 §5; everyone uses 5000).
    public var sctpPort: UInt16
    /// The largest data channel message Revue receives (RFC 8841 §6).
    public var maxMessageSize: UInt64
    /// Whose answer this is: the server's (ICE-lite, `setup:passive`: the DTLS server), or a
    /// client's answering the server's subscriber offer (Revue's recorder and SDK: a full ICE
    /// agent, `setup:active`: the DTLS client).
    public var role: Role = .server

    public enum Role: Sendable, Equatable {
        case server
        case client
    }

    /// A builder for one connection's answers.
    public init(capabilities: Capabilities = .revue, transport: TransportParameters, sessionID: UInt64, sessionVersion: UInt64 = 1,
                sctpPort: UInt16 = 5000, maxMessageSize: UInt64 = 262_144)
    {
        self.capabilities = capabilities
        self.transport = transport
        self.sessionID = sessionID
        self.sessionVersion = sessionVersion
        self.sctpPort = sctpPort
        self.maxMessageSize = maxMessageSize
    }

    /// Answers `offer`.
    /// - Parameters:
    ///   - sendReceiveAs: the local direction for sections offered `sendrecv` (`.recvonly` for a
    ///     publisher: the server takes its media and sends nothing back in that section).
    ///   - tracks: what the server sends in sections offered `recvonly` (matched by mid), so that
    ///     their SSRCs are signalled; the payload types come from the offer regardless.
    /// - Throws: when the offer as a whole cannot work: no mid, no ICE credentials, no
    ///   fingerprint, `setup:passive`, or invalid local parameters.
    public func answer(to offer: SessionDescription, sendReceiveAs: MediaDirection = .recvonly,
                       tracks: [OutgoingTrack] = []) throws(NegotiationError) -> Answer
    {
        try transport.validate()
        guard !offer.media.isEmpty else { throw NegotiationError("the offer has no media sections") }
        let bundle = offer.bundleGroup
        var mids = Set<String>()
        var sections: [MediaDescription] = []
        var summaries: [NegotiatedMedia] = []
        var accepted: [String] = []
        var dataChannelMid: String?

        for (index, offered) in offer.media.enumerated() {
            guard let mid = offered.mid, !mid.isEmpty else {
                throw NegotiationError("m-section \(index) (\(offered.kind)) has no a=mid; Revue needs mids to BUNDLE (RFC 9143 §7.2)")
            }
            guard mids.insert(mid).inserted else { throw NegotiationError(mid: mid, "the offer uses this mid twice") }

            var reason: String?
            if offered.isRejected {
                reason = "the offer rejected this section (port 0)"
            } else if let bundle, !bundle.contains(mid) {
                reason = "outside the offer's BUNDLE group; Revue carries all media on one transport (RFC 9143)"
            } else if bundle == nil, !accepted.isEmpty {
                reason = "a second section without BUNDLE; Revue carries all media on one transport (RFC 9143)"
            } else if offered.kind == .application, let first = dataChannelMid {
                reason = "a second data channel section; one SCTP association (mid \(first)) carries every channel (RFC 8831 §6)"
            }
            let outcome: (MediaDescription, NegotiatedMedia)?
            if let reason {
                outcome = nil
                summaries.append(.rejected(index: index, mid: mid, kind: offered.kind, reason: reason))
            } else {
                switch try acceptSection(index, of: offer, mid: mid, sendReceiveAs: sendReceiveAs, tracks: tracks) {
                case .accepted(let section, let summary):
                    outcome = (section, summary)
                case .rejected(let why):
                    outcome = nil
                    summaries.append(.rejected(index: index, mid: mid, kind: offered.kind, reason: why))
                }
            }
            if let (section, summary) = outcome {
                sections.append(section)
                summaries.append(summary)
                accepted.append(mid)
                if offered.kind == .application { dataChannelMid = mid }
            } else {
                sections.append(Self.rejectedSection(offered, mid: mid))
            }
        }

        var answer = SessionDescription(origin: Origin(sessionID: sessionID, sessionVersion: sessionVersion), media: sections)
        answer.iceLite = role == .server
        if bundle != nil, !accepted.isEmpty { answer.groups = [MediaGroup(semantics: "BUNDLE", mids: accepted)] }
        answer.msidSemantic = MSIDSemantic(semantic: "WMS", identifiers: ["*"])
        let negotiation = Negotiation(media: summaries, bundle: answer.bundleGroup ?? [], remoteICELite: offer.iceLite)
        return Answer(description: answer, negotiation: negotiation)
    }

    private enum Outcome {
        case accepted(MediaDescription, NegotiatedMedia)
        case rejected(String)
    }

    private func acceptSection(_ index: Int, of offer: SessionDescription, mid: String, sendReceiveAs: MediaDirection,
                               tracks: [OutgoingTrack]) throws(NegotiationError) -> Outcome
    {
        let offered = offer.media[index]
        var section: MediaDescription
        var direction = MediaDirection.sendrecv
        switch offered.kind {
        case .audio, .video:
            let proto = offered.proto.uppercased()
            guard ["UDP/TLS/RTP/SAVPF", "UDP/TLS/RTP/SAVP", "RTP/SAVPF", "RTP/SAVP"].contains(proto) else {
                return .rejected("protocol \(offered.proto) is not DTLS-SRTP over UDP (UDP/TLS/RTP/SAVPF, RFC 5764)")
            }
            guard offered.rtcpMux || offered.rtcpMuxOnly else {
                return .rejected("no a=rtcp-mux; Revue multiplexes RTCP with RTP only (RFC 8858)")
            }
            switch offer.direction(of: offered) {
            case .sendonly: direction = .recvonly
            case .recvonly: direction = .sendonly
            case .inactive: direction = .inactive
            case .sendrecv: direction = sendReceiveAs
            }
            switch media(answering: offered, direction: direction) {
            case .success(let built): section = built
            case .failure(let rejection): return .rejected(rejection.description)
            }
            if direction.sends, let track = tracks.first(where: { $0.mid == mid && $0.kind == offered.kind }) {
                track.announce(in: &section)
            }
        case .application:
            let proto = offered.proto.uppercased()
            guard proto == "UDP/DTLS/SCTP", offered.formats.contains("webrtc-datachannel") else {
                if proto == "DTLS/SCTP" {
                    return .rejected("the pre-RFC 8841 data channel format (DTLS/SCTP with a=sctpmap) is not supported")
                }
                return .rejected("m=application \(offered.proto) \(offered.formats.joined(separator: " ")) is not a data channel (UDP/DTLS/SCTP webrtc-datachannel, RFC 8841)")
            }
            section = MediaDescription(kind: .application, proto: offered.proto, formats: ["webrtc-datachannel"])
            section.sctpPort = sctpPort
            section.maxMessageSize = maxMessageSize
        case .other(let kind):
            return .rejected("Revue does not take m=\(kind)")
        }

        guard let remote = RemoteTransport.resolve(index, in: offer) else {
            throw NegotiationError(mid: mid, "the offer has no a=ice-ufrag and a=ice-pwd (RFC 8839 §5.4)")
        }
        guard !remote.fingerprints.isEmpty else {
            throw NegotiationError(mid: mid, "the offer has no a=fingerprint; Revue only speaks DTLS-SRTP (RFC 8122 §5)")
        }
        let remoteSetup = remote.setup ?? .active
        switch remoteSetup {
        case .passive where role == .server:
            throw NegotiationError(mid: mid, "the offer says a=setup:passive, which would make Revue the DTLS client; the server is always the DTLS server (RFC 5763 §5)")
        case .active where role == .client:
            throw NegotiationError(mid: mid, "the offer says a=setup:active, which would make a client the DTLS server; Revue's server is always the DTLS server")
        case .holdconn:
            return .rejected("the offer says a=setup:holdconn")
        case .active, .actpass, .passive:
            break
        }
        section.mid = mid
        transport.apply(to: &section, setup: role == .server ? .passive : .active)
        if section.isRTP {
            section.direction = direction
            section.rtcpMux = true
        }
        let summary = NegotiatedMedia(index: index, mid: mid, direction: direction, agreed: section, remote: offered,
                                      transport: remote, remoteSetup: remoteSetup)
        return .accepted(section, summary)
    }

    private struct Rejection: Error, CustomStringConvertible {
        let description: String
    }

    /// The RTP part of an answer section: codecs picked from the offer's own payload types,
    /// extensions with the offer's IDs, simulcast turned round.
    private func media(answering offered: MediaDescription, direction: MediaDirection) -> Result<MediaDescription, Rejection> {
        var chosen: [(capability: CodecCapability, codec: RTPCodec)] = []
        var used = Set<UInt8>()
        for capability in capabilities.codecs(for: offered.kind) {
            var best: (codec: RTPCodec, rank: Int)?
            for codec in offered.codecs where !codec.isRTX && !used.contains(codec.payloadType) {
                if let rank = capability.rank(codec), rank < (best?.rank ?? Int.max) { best = (codec, rank) }
            }
            if let best {
                chosen.append((capability, best.codec))
                used.insert(best.codec.payloadType)
            }
        }
        guard !chosen.isEmpty else { return .failure(Rejection(description: noCodecReason(offered))) }

        var section = MediaDescription(kind: offered.kind, proto: offered.proto, formats: [])
        let rtx = offered.rtxPayloadTypes
        for (capability, codec) in chosen {
            let feedback = offered.feedback(for: codec).filter { offeredKind in capability.feedback.contains { $0.sameKind(as: offeredKind) } }
            section.codecs.append(RTPCodec(payloadType: codec.payloadType, name: codec.name, clockRate: codec.clockRate, channels: codec.channels,
                                           formatParameters: capability.answerParameters(for: codec), feedback: feedback))
            if capability.rtx, let rtxType = rtx[codec.payloadType], let rtxCodec = offered.codec(payloadType: rtxType) {
                section.codecs.append(RTPCodec(payloadType: rtxType, name: rtxCodec.name, clockRate: rtxCodec.clockRate,
                                               formatParameters: "apt=\(codec.payloadType)"))
            }
        }
        section.formats = section.codecs.map { String($0.payloadType) }

        let supported = capabilities.headerExtensions(for: offered.kind).map(\.uri)
        let ridURIs = [HeaderExtension.rtpStreamID, HeaderExtension.repairedRTPStreamID]
        let offersRID = offered.extensions.contains { $0.uri == HeaderExtension.rtpStreamID } && supported.contains(HeaderExtension.rtpStreamID)
        // RFC 8853 §5.3: the answerer turns the offer's send list into its recv list.
        let sentRIDs = offered.rids.filter { $0.direction == .send }
        if direction.receives, offersRID, let simulcast = offered.simulcast, !simulcast.send.isEmpty, !sentRIDs.isEmpty {
            let known = Set(sentRIDs.map(\.id))
            let streams = simulcast.send.map { $0.filter { known.contains($0.rid) } }.filter { !$0.isEmpty }
            if !streams.isEmpty {
                section.simulcast = Simulcast(recv: streams)
                let listed = Set(streams.flatMap { $0.map(\.rid) })
                section.rids = sentRIDs.filter { listed.contains($0.id) }.map { RID(id: $0.id, direction: .recv) }
            }
        }
        section.extensions = offered.extensions.filter { header in
            supported.contains(header.uri) && (section.simulcast != nil || !ridURIs.contains(header.uri))
        }.map { HeaderExtension(id: $0.id, uri: $0.uri, direction: $0.direction?.reversed) }
        section.rtcpReducedSize = offered.rtcpReducedSize
        return .success(section)
    }

    /// Why no offered codec fits, naming what was offered and what Revue takes.
    private func noCodecReason(_ offered: MediaDescription) -> String {
        let codecs = offered.codecs.filter { !$0.isRTX && !$0.name.isEmpty }
        let h264 = codecs.filter { $0.name.lowercased() == "h264" }
        let takes = capabilities.codecs(for: offered.kind).map { capability in
            capability.isH264 ? "\(capability.encoding) with packetization-mode=1 and a Constrained Baseline or Baseline profile-level-id"
                : capability.encoding
        }
        var reason = "no codec Revue takes"
        if !h264.isEmpty, h264.allSatisfy({ $0.parameter("packetization-mode") ?? "0" == "0" }) {
            reason += ": H.264 is offered only with packetization-mode=0 (payload types \(h264.map { String($0.payloadType) }.joined(separator: ", "))), and Revue needs packetization-mode=1 (RFC 6184 §6.3)"
        } else {
            let offeredText = codecs.map { codec in
                codec.formatParameters.map { "\(codec.encoding) (\($0))" } ?? codec.encoding
            }.joined(separator: ", ")
            reason += "; offered: \(offeredText.isEmpty ? "nothing" : offeredText)"
        }
        return reason + "; Revue takes \(takes.isEmpty ? "no \(offered.kind)" : takes.joined(separator: ", "))"
    }

    /// A rejected section: port 0, the offer's proto and first format, the mid kept (RFC 8829 §5.3.1).
    static func rejectedSection(_ offered: MediaDescription, mid: String) -> MediaDescription {
        var section = MediaDescription(kind: offered.kind, port: 0, proto: offered.proto, formats: Array(offered.formats.prefix(1)))
        if offered.isRTP, let first = offered.codecs.first {
            section.codecs = [RTPCodec(payloadType: first.payloadType, name: first.name, clockRate: first.clockRate, channels: first.channels)]
        }
        section.connection = Connection(address: "0.0.0.0")
        section.mid = mid
        if offered.isRTP { section.direction = .inactive }
        return section
    }
}
