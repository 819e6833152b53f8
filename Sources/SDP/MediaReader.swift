/// Reads the lines of one media section (RFC 8866 §5.14) into a `MediaDescription`.
///
/// `a=rtpmap`, `a=fmtp` and `a=rtcp-fb` may come in any order (Firefox writes fmtp before
/// rtpmap), so they are collected per payload type and joined into codecs at the end.
struct MediaReader {
    var media: MediaDescription
    /// Whether the formats are payload types, computed once: codec lines ask for every line.
    private let isRTP: Bool
    private var rtpmaps: [UInt8: (name: String, clockRate: UInt32, channels: UInt8?)] = [:]
    private var fmtps: [UInt8: String] = [:]
    private var feedback: [UInt8: [RTCPFeedback]] = [:]
    /// The codec lines as written, for payload types the m-line does not list.
    private var codecLines: [(payloadType: UInt8, attribute: SDPAttribute)] = []
    private var ssrcOrder: [UInt32] = []
    private var ssrcAttributes: [UInt32: [SDPAttribute]] = [:]
    private var sawConnection = false

    /// `m=<media> <port>[/<number of ports>] <proto> <fmt> ...` (RFC 8866 §5.14).
    init(mLine value: Substring, line: Substring, number: Int) throws(SDPError) {
        let fields = value.fields()
        guard fields.count >= 3 else { throw SDPError(line: number, "m= needs media, port and protocol (RFC 8866 §5.14)", text: line) }
        let portField = fields[1].parts(UInt8(ascii: "/"), maxSplits: 1)
        guard let port = portField[0].uint16 else { throw SDPError(line: number, "m= port \"\(fields[1])\" is not a number from 0 to 65535", text: line) }
        media = MediaDescription(kind: MediaKind(fields[0]), port: port, proto: String(fields[2]), formats: fields.dropFirst(3).map(String.init))
        isRTP = media.isRTP
        if portField.count == 2 {
            guard let count = portField[1].uint16 else { throw SDPError(line: number, "m= port count \"\(portField[1])\" is not a number", text: line) }
            media.portCount = count
        }
        if isRTP {
            for format in media.formats {
                guard let payloadType = format[...].uint8, payloadType < 128 else {
                    throw SDPError(line: number, "RTP format \"\(format)\" is not a payload type from 0 to 127", text: line)
                }
            }
        }
    }

    mutating func setConnection(_ connection: Connection, line: Substring, number: Int) throws(SDPError) {
        guard !sawConnection else { throw SDPError(line: number, "a second c= line in one media section", text: line) }
        media.connection = connection
        sawConnection = true
    }

    mutating func attribute(_ value: Substring, line: Substring, number: Int) throws(SDPError) {
        let (name, attributeValue) = try SDPParser.splitAttribute(value, line: line, number: number)
        let trimmed = attributeValue?.trimmedSpaces ?? ""
        switch name {
        case "mid":
            media.mid = try SDPParser.single(media.mid, String(trimmed), name, line: line, number: number)
        case "sendrecv", "sendonly", "recvonly", "inactive":
            media.direction = try SDPParser.single(media.direction, MediaDirection(rawValue: name), "direction", line: line, number: number)
        case "ice-ufrag":
            media.iceUfrag = try SDPParser.single(media.iceUfrag, String(trimmed), name, line: line, number: number)
        case "ice-pwd":
            media.icePwd = try SDPParser.single(media.icePwd, String(trimmed), name, line: line, number: number)
        case "ice-options":
            media.iceOptions += trimmed.fields().map(String.init)
        case "fingerprint":
            media.fingerprints.append(try SDPParser.fingerprint(trimmed, line: line, number: number))
        case "setup":
            media.setup = try SDPParser.single(media.setup, try SDPParser.setup(trimmed, line: line, number: number), name, line: line, number: number)
        case "rtcp":
            media.rtcp = try SDPParser.single(media.rtcp, String(trimmed), name, line: line, number: number)
        case "rtcp-mux": media.rtcpMux = true
        case "rtcp-mux-only": media.rtcpMuxOnly = true
        case "rtcp-rsize": media.rtcpReducedSize = true
        case "bundle-only": media.bundleOnly = true
        case "extmap-allow-mixed": media.extmapAllowMixed = true
        case "end-of-candidates": media.endOfCandidates = true
        case "candidate":
            media.candidates.append(String(attributeValue ?? ""))
        case "rtpmap" where isRTP:
            try rtpmap(trimmed, attribute: SDPAttribute(name: name, value: attributeValue.map(String.init)), line: line, number: number)
        case "fmtp" where isRTP:
            try fmtp(trimmed, attribute: SDPAttribute(name: name, value: attributeValue.map(String.init)), line: line, number: number)
        case "rtcp-fb" where isRTP:
            try rtcpFeedback(trimmed, attribute: SDPAttribute(name: name, value: attributeValue.map(String.init)), line: line, number: number)
        case "extmap":
            media.extensions.append(try Self.extmap(trimmed, line: line, number: number))
        case "ssrc":
            try ssrc(trimmed, line: line, number: number)
        case "ssrc-group":
            let tokens = trimmed.fields()
            guard let semantics = tokens.first else { throw SDPError(line: number, "a=ssrc-group without semantics (RFC 5576 §4.2)", text: line) }
            var ssrcs: [UInt32] = []
            for token in tokens.dropFirst() {
                guard let ssrc = token.uint32 else { throw SDPError(line: number, "a=ssrc-group SSRC \"\(token)\" is not a 32-bit number", text: line) }
                ssrcs.append(ssrc)
            }
            media.ssrcGroups.append(SSRCGroup(semantics: String(semantics), ssrcs: ssrcs))
        case "msid":
            guard let msid = MSID(parsing: String(trimmed)) else {
                throw SDPError(line: number, "a=msid needs a stream id and at most one track id (RFC 8830 §2)", text: line)
            }
            media.msids.append(msid)
        case "rid":
            media.rids.append(try Self.rid(trimmed, line: line, number: number))
        case "simulcast":
            guard let simulcast = Simulcast(parsing: String(trimmed)) else {
                throw SDPError(line: number, "a=simulcast is not \"send <rids>\" and/or \"recv <rids>\" (RFC 8853 §5.1)", text: line)
            }
            media.simulcast = try SDPParser.single(media.simulcast, simulcast, name, line: line, number: number)
        case "sctp-port":
            guard let port = trimmed.uint16 else { throw SDPError(line: number, "a=sctp-port \"\(trimmed)\" is not a port number (RFC 8841 §5)", text: line) }
            media.sctpPort = try SDPParser.single(media.sctpPort, port, name, line: line, number: number)
        case "max-message-size":
            guard let size = trimmed.uint64 else { throw SDPError(line: number, "a=max-message-size \"\(trimmed)\" is not a number (RFC 8841 §6)", text: line) }
            media.maxMessageSize = try SDPParser.single(media.maxMessageSize, size, name, line: line, number: number)
        default:
            media.attributes.append(SDPAttribute(name: name, value: attributeValue.map(String.init)))
        }
    }

    // MARK: Codec lines

    private static func payloadType(_ token: Substring, _ name: String, line: Substring, number: Int) throws(SDPError) -> UInt8 {
        guard let payloadType = token.uint8, payloadType < 128 else {
            throw SDPError(line: number, "a=\(name) payload type \"\(token)\" is not a number from 0 to 127", text: line)
        }
        return payloadType
    }

    /// `a=rtpmap:<payload type> <encoding name>/<clock rate>[/<encoding parameters>]` (RFC 8866 §6.6).
    private mutating func rtpmap(_ value: Substring, attribute: SDPAttribute, line: Substring, number: Int) throws(SDPError) {
        let fields = value.fields(maxSplits: 1)
        guard fields.count == 2 else { throw SDPError(line: number, "a=rtpmap needs a payload type and an encoding (RFC 8866 §6.6)", text: line) }
        let payloadType = try Self.payloadType(fields[0], "rtpmap", line: line, number: number)
        let parts = fields[1].parts(UInt8(ascii: "/"))
        guard parts.count == 2 || parts.count == 3, !parts[0].isEmpty else {
            throw SDPError(line: number, "a=rtpmap encoding \"\(fields[1])\" is not name/clock-rate[/channels]", text: line)
        }
        guard let clockRate = parts[1].uint32 else {
            throw SDPError(line: number, "a=rtpmap clock rate \"\(parts[1])\" is not a number", text: line)
        }
        var channels: UInt8?
        if parts.count == 3 {
            guard let count = parts[2].uint8 else { throw SDPError(line: number, "a=rtpmap channel count \"\(parts[2])\" is not a number", text: line) }
            channels = count
        }
        guard rtpmaps[payloadType] == nil else { throw SDPError(line: number, "a second a=rtpmap for payload type \(payloadType)", text: line) }
        rtpmaps[payloadType] = (String(parts[0]), clockRate, channels)
        codecLines.append((payloadType, attribute))
    }

    /// `a=fmtp:<format> <format specific parameters>` (RFC 8866 §6.15).
    private mutating func fmtp(_ value: Substring, attribute: SDPAttribute, line: Substring, number: Int) throws(SDPError) {
        let fields = value.fields(maxSplits: 1)
        guard let first = fields.first else { throw SDPError(line: number, "a=fmtp without a payload type", text: line) }
        let payloadType = try Self.payloadType(first, "fmtp", line: line, number: number)
        guard fmtps[payloadType] == nil else { throw SDPError(line: number, "a second a=fmtp for payload type \(payloadType)", text: line) }
        fmtps[payloadType] = fields.count == 2 ? fields[1].trimmingSpaces : ""
        codecLines.append((payloadType, attribute))
    }

    /// `a=rtcp-fb:<payload type or *> <type> [<parameter>]` (RFC 4585 §4.2).
    private mutating func rtcpFeedback(_ value: Substring, attribute: SDPAttribute, line: Substring, number: Int) throws(SDPError) {
        let fields = value.fields(maxSplits: 1)
        guard fields.count == 2 else { throw SDPError(line: number, "a=rtcp-fb needs a payload type and a feedback type (RFC 4585 §4.2)", text: line) }
        let rest = fields[1].fields(maxSplits: 1)
        let parameter = rest.count == 2 ? rest[1].trimmingSpaces : ""
        let entry = RTCPFeedback(String(rest[0]), parameter.isEmpty ? nil : parameter)
        if fields[0] == "*" {
            media.wildcardFeedback.append(entry)
            return
        }
        let payloadType = try Self.payloadType(fields[0], "rtcp-fb", line: line, number: number)
        feedback[payloadType, default: []].append(entry)
        codecLines.append((payloadType, attribute))
    }

    // MARK: Other typed attributes

    /// `a=extmap:<id>[/<direction>] <URI> [<extension attributes>]` (RFC 8285 §8).
    static func extmap(_ value: Substring, line: Substring, number: Int) throws(SDPError) -> HeaderExtension {
        let fields = value.fields(maxSplits: 2)
        guard fields.count >= 2 else { throw SDPError(line: number, "a=extmap needs an id and a URI (RFC 8285 §8)", text: line) }
        let idParts = fields[0].parts(UInt8(ascii: "/"), maxSplits: 1)
        guard let id = idParts[0].uint16, (1...4351).contains(id), !(256..<4096).contains(id) else {
            throw SDPError(line: number, "a=extmap id \"\(idParts[0])\" is not 1–255 or 4096–4351 (RFC 8285 §5)", text: line)
        }
        var direction: MediaDirection?
        if idParts.count == 2 {
            guard let parsed = MediaDirection(rawValue: String(idParts[1])) else {
                throw SDPError(line: number, "a=extmap direction \"\(idParts[1])\" is not sendrecv, sendonly, recvonly or inactive", text: line)
            }
            direction = parsed
        }
        let attributes = fields.count == 3 ? fields[2].trimmingSpaces : ""
        return HeaderExtension(id: id, uri: String(fields[1]), direction: direction, attributes: attributes.isEmpty ? nil : attributes)
    }

    /// `a=ssrc:<ssrc-id> <attribute>[:<value>]` (RFC 5576 §4.1).
    private mutating func ssrc(_ value: Substring, line: Substring, number: Int) throws(SDPError) {
        let fields = value.fields(maxSplits: 1)
        guard let first = fields.first, let ssrc = first.uint32 else {
            throw SDPError(line: number, "a=ssrc \"\(fields.first ?? "")\" is not a 32-bit SSRC (RFC 5576 §4.1)", text: line)
        }
        if ssrcAttributes[ssrc] == nil {
            ssrcOrder.append(ssrc)
            ssrcAttributes[ssrc] = []
        }
        guard fields.count == 2 else { return }
        if let (name, value) = fields[1].splitOnce(UInt8(ascii: ":")) {
            ssrcAttributes[ssrc]?.append(SDPAttribute(name: String(name), value: String(value)))
        } else {
            ssrcAttributes[ssrc]?.append(SDPAttribute(name: String(fields[1])))
        }
    }

    /// `a=rid:<rid-id> <send|recv> [<restrictions>]` (RFC 8851 §10).
    static func rid(_ value: Substring, line: Substring, number: Int) throws(SDPError) -> RID {
        let fields = value.fields(maxSplits: 2)
        guard fields.count >= 2 else { throw SDPError(line: number, "a=rid needs an id and send or recv (RFC 8851 §10)", text: line) }
        guard RID.isValidID(fields[0]) else {
            throw SDPError(line: number, "a=rid id \"\(fields[0])\" may only hold letters, digits, - and _ (RFC 8851 §10)", text: line)
        }
        guard let direction = RID.Direction(rawValue: String(fields[1])) else {
            throw SDPError(line: number, "a=rid direction \"\(fields[1])\" is not send or recv", text: line)
        }
        let restrictions = fields.count == 3 ? fields[2].trimmingSpaces : ""
        return RID(id: String(fields[0]), direction: direction, restrictions: restrictions.isEmpty ? nil : restrictions)
    }

    // MARK: End of section

    consuming func finish() throws(SDPError) -> MediaDescription {
        if isRTP {
            var seen = Set<UInt8>()
            for format in media.formats {
                guard let payloadType = format[...].uint8, seen.insert(payloadType).inserted else { continue }
                var codec: RTPCodec
                if let map = rtpmaps[payloadType] {
                    codec = RTPCodec(payloadType: payloadType, name: map.name, clockRate: map.clockRate, channels: map.channels)
                } else if let known = RTPCodec.staticMapping(payloadType) {
                    codec = RTPCodec(payloadType: payloadType, name: known.name, clockRate: known.clockRate)
                } else {
                    codec = RTPCodec(payloadType: payloadType, name: "", clockRate: 0)
                }
                codec.formatParameters = fmtps[payloadType]
                codec.feedback = feedback[payloadType] ?? []
                media.codecs.append(codec)
            }
            // Lines for payload types the m-line does not list stay as written.
            media.attributes += codecLines.filter { !seen.contains($0.payloadType) }.map(\.attribute)
        }
        media.ssrcs = ssrcOrder.map { SSRCDescription(ssrc: $0, attributes: ssrcAttributes[$0] ?? []) }
        return media
    }
}
