/// Writes a `SessionDescription` as SDP text with CRLF endings, in the order RFC 8866 §5 gives
/// for the session part and in the order Chromium writes media attributes.
struct SDPWriter {
    private var text = ""

    static func write(_ session: SessionDescription) -> String {
        var writer = SDPWriter()
        writer.text.reserveCapacity(1024 + 2048 * session.media.count)
        writer.session(session)
        for media in session.media { writer.media(media) }
        return writer.text
    }

    private mutating func line(_ type: Character, _ value: String) {
        text.append(type)
        text.append("=")
        text.append(value)
        text.append("\r\n")
    }

    private mutating func attribute(_ name: String, _ value: String? = nil) {
        line("a", value.map { "\(name):\($0)" } ?? name)
    }

    private mutating func session(_ session: SessionDescription) {
        line("v", String(session.version))
        line("o", session.origin.text)
        line("s", session.sessionName)
        for other in session.otherLines where "iuep".contains(other.type) { line(other.type, other.value) }
        if let connection = session.connection { line("c", connection.text) }
        for other in session.otherLines where other.type == "b" { line(other.type, other.value) }
        line("t", session.timing)
        for other in session.otherLines where !"iuepb".contains(other.type) { line(other.type, other.value) }
        if session.iceLite { attribute("ice-lite") }
        for group in session.groups { attribute("group", group.text) }
        if session.extmapAllowMixed { attribute("extmap-allow-mixed") }
        if let semantic = session.msidSemantic { attribute("msid-semantic", " " + semantic.text) }
        for fingerprint in session.fingerprints { attribute("fingerprint", "\(fingerprint.hashFunction) \(fingerprint.value)") }
        if let setup = session.setup { attribute("setup", setup.rawValue) }
        if let ufrag = session.iceUfrag { attribute("ice-ufrag", ufrag) }
        if let pwd = session.icePwd { attribute("ice-pwd", pwd) }
        if !session.iceOptions.isEmpty { attribute("ice-options", session.iceOptions.joined(separator: " ")) }
        if let direction = session.direction { attribute(direction.rawValue) }
        for other in session.attributes { line("a", other.text) }
    }

    private mutating func media(_ media: MediaDescription) {
        let port = media.portCount.map { "\(media.port)/\($0)" } ?? String(media.port)
        line("m", ([media.kind.description, port, media.proto] + media.formats).joined(separator: " "))
        if let connection = media.connection { line("c", connection.text) }
        for other in media.otherLines { line(other.type, other.value) }
        if media.bundleOnly { attribute("bundle-only") }
        if let rtcp = media.rtcp { attribute("rtcp", rtcp) }
        for candidate in media.candidates { attribute("candidate", candidate) }
        if media.endOfCandidates { attribute("end-of-candidates") }
        if let ufrag = media.iceUfrag { attribute("ice-ufrag", ufrag) }
        if let pwd = media.icePwd { attribute("ice-pwd", pwd) }
        if !media.iceOptions.isEmpty { attribute("ice-options", media.iceOptions.joined(separator: " ")) }
        for fingerprint in media.fingerprints { attribute("fingerprint", "\(fingerprint.hashFunction) \(fingerprint.value)") }
        if let setup = media.setup { attribute("setup", setup.rawValue) }
        if let mid = media.mid { attribute("mid", mid) }
        for header in media.extensions { extmap(header) }
        if media.extmapAllowMixed { attribute("extmap-allow-mixed") }
        if let direction = media.direction { attribute(direction.rawValue) }
        for msid in media.msids { attribute("msid", msid.text) }
        if media.rtcpMux { attribute("rtcp-mux") }
        if media.rtcpMuxOnly { attribute("rtcp-mux-only") }
        if media.rtcpReducedSize { attribute("rtcp-rsize") }
        for codec in media.codecs { self.codec(codec) }
        for feedback in media.wildcardFeedback { attribute("rtcp-fb", "* \(feedback)") }
        for group in media.ssrcGroups { attribute("ssrc-group", ([group.semantics] + group.ssrcs.map(String.init)).joined(separator: " ")) }
        for ssrc in media.ssrcs {
            if ssrc.attributes.isEmpty { attribute("ssrc", String(ssrc.ssrc)) }
            for other in ssrc.attributes { attribute("ssrc", "\(ssrc.ssrc) \(other.text)") }
        }
        for rid in media.rids { attribute("rid", [rid.id, rid.direction.rawValue, rid.restrictions].compactMap { $0 }.joined(separator: " ")) }
        if let simulcast = media.simulcast { attribute("simulcast", simulcast.text) }
        if let port = media.sctpPort { attribute("sctp-port", String(port)) }
        if let size = media.maxMessageSize { attribute("max-message-size", String(size)) }
        for other in media.attributes { line("a", other.text) }
    }

    private mutating func extmap(_ header: HeaderExtension) {
        var value = String(header.id)
        if let direction = header.direction { value += "/" + direction.rawValue }
        value += " " + header.uri
        if let attributes = header.attributes { value += " " + attributes }
        attribute("extmap", value)
    }

    private mutating func codec(_ codec: RTPCodec) {
        if !codec.name.isEmpty { attribute("rtpmap", "\(codec.payloadType) \(codec.encoding)") }
        for feedback in codec.feedback { attribute("rtcp-fb", "\(codec.payloadType) \(feedback)") }
        if let parameters = codec.formatParameters {
            attribute("fmtp", parameters.isEmpty ? String(codec.payloadType) : "\(codec.payloadType) \(parameters)")
        }
    }
}
