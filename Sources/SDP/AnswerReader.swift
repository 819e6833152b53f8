/// Reads the remote answer to an offer the local side wrote (RFC 3264 §5–6, JSEP RFC 8829 §5.10)
/// into a `Negotiation`, refusing answers that break the offer/answer rules.
enum AnswerReader {
    static func negotiate(answer: SessionDescription, to offer: SessionDescription,
                          allowedSetups: [SetupRole], role: String) throws(NegotiationError) -> Negotiation
    {
        guard answer.media.count == offer.media.count else {
            throw NegotiationError("the answer has \(answer.media.count) media sections, the offer had \(offer.media.count) (RFC 3264 §6)")
        }
        var summaries: [NegotiatedMedia] = []
        for (index, (ours, theirs)) in zip(offer.media, answer.media).enumerated() {
            let mid = ours.mid ?? String(index)
            guard theirs.kind == ours.kind else {
                throw NegotiationError(mid: mid, "the answer has m=\(theirs.kind) where the offer had m=\(ours.kind) (RFC 3264 §6)")
            }
            if let answered = theirs.mid, answered != mid {
                throw NegotiationError(mid: mid, "the answer calls m-section \(index) \"\(answered)\" (RFC 8829 §5.3.1)")
            }
            if theirs.isRejected || ours.isRejected {
                summaries.append(.rejected(index: index, mid: mid, kind: ours.kind,
                                           reason: ours.isRejected ? "the offer rejected this section (port 0)" : "the answer rejected this section (port 0)"))
                continue
            }
            guard let remote = RemoteTransport.resolve(index, in: answer) else {
                throw NegotiationError(mid: mid, "the answer has no a=ice-ufrag and a=ice-pwd (RFC 8839 §5.4)")
            }
            guard !remote.fingerprints.isEmpty else { throw NegotiationError(mid: mid, "the answer has no a=fingerprint (RFC 8122 §5)") }
            // RFC 4145 §4: a missing setup attribute means active.
            let setup = remote.setup ?? .active
            guard setup != .actpass else {
                throw NegotiationError(mid: mid, "the answer says a=setup:actpass; an answer must choose active or passive (RFC 5763 §5)")
            }
            guard allowedSetups.contains(setup) else {
                throw NegotiationError(mid: mid, "the answer says a=setup:\(setup.rawValue), but \(role)")
            }
            var direction = MediaDirection.sendrecv
            if ours.isRTP {
                guard theirs.rtcpMux else { throw NegotiationError(mid: mid, "the answer did not accept a=rtcp-mux (RFC 8858)") }
                try checkCodecs(theirs, against: ours, mid: mid)
                let offered = offer.direction(of: ours)
                let answered = answer.direction(of: theirs)
                direction = MediaDirection(sends: offered.sends && answered.receives, receives: offered.receives && answered.sends)
            }
            summaries.append(NegotiatedMedia(index: index, mid: mid, direction: direction, agreed: theirs, remote: theirs,
                                             transport: remote, remoteSetup: setup))
        }
        let bundle = answer.bundleGroup ?? []
        let accepted = summaries.filter(\.isAccepted).map(\.mid)
        if accepted.count > 1, !accepted.allSatisfy(bundle.contains) {
            throw NegotiationError("the answer does not BUNDLE every accepted section (\(accepted.joined(separator: " "))); Revue uses one transport (RFC 9143)")
        }
        return Negotiation(media: summaries, bundle: bundle, remoteICELite: answer.iceLite)
    }

    /// An answer may only use the offer's payload types and extension IDs (RFC 3264 §6.1, RFC 8285 §6).
    private static func checkCodecs(_ theirs: MediaDescription, against ours: MediaDescription, mid: String) throws(NegotiationError) {
        for codec in theirs.codecs {
            guard let offered = ours.codec(payloadType: codec.payloadType) else {
                throw NegotiationError(mid: mid, "the answer uses payload type \(codec.payloadType), which the offer did not list")
            }
            if !codec.name.isEmpty, codec.name.lowercased() != offered.name.lowercased() {
                throw NegotiationError(mid: mid, "the answer maps payload type \(codec.payloadType) to \(codec.name), the offer to \(offered.name)")
            }
        }
        for header in theirs.extensions where !ours.extensions.contains(where: { $0.id == header.id && $0.uri == header.uri }) {
            throw NegotiationError(mid: mid, "the answer uses extmap \(header.id) \(header.uri), which the offer did not have")
        }
    }
}
