/// Reads SDP text into `SessionDescription` (RFC 8866 §5 and §9 grammar).
///
/// Each line is `<type>=<value>`. The session part (`v=`, `o=`, `s=`, `t=` and session-level
/// `a=` lines) comes first; every `m=` line starts a media section that runs to the next one.
/// Lines may end in CRLF or LF; blank lines and surrounding spaces are ignored.
struct SDPParser {
    private var session = SessionDescription(origin: Origin(sessionID: 0, sessionVersion: 0))
    private var sawVersion = false
    private var sawOrigin = false
    private var sawName = false
    private var sawTiming = false
    private var current: MediaReader?

    static func parse(_ text: String, limits: SDPLimits) throws(SDPError) -> SessionDescription {
        // What a description may cost is checked before and while it is read, never after: an
        // offer of thousands of sections is refused at the first section too many.
        guard text.utf8.count <= limits.maxBytes else { throw SDPError(line: 0, "the description is over \(limits.maxBytes) bytes") }
        var parser = SDPParser()
        var number = 0
        var sections = 0
        // Split on the LF byte: a CRLF pair is one Character in Swift and would not split.
        let bytes = text.utf8
        var start = bytes.startIndex
        while start < bytes.endIndex {
            var end = start
            while end < bytes.endIndex, bytes[end] != 0x0A { end = bytes.index(after: end) }
            number += 1
            guard number <= limits.maxLines else { throw SDPError(line: number, "the description has more than \(limits.maxLines) lines") }
            let line = Substring(bytes[start..<end]).trimmingLineSpace
            if line.utf8.first == UInt8(ascii: "m") {
                sections += 1
                guard sections <= limits.maxMediaSections else {
                    throw SDPError(line: number, "the description has more than \(limits.maxMediaSections) media sections")
                }
            }
            if !line.isEmpty { try parser.read(line, number: number) }
            start = end < bytes.endIndex ? bytes.index(after: end) : end
        }
        return try parser.finish()
    }

    private mutating func read(_ line: Substring, number: Int) throws(SDPError) {
        let utf8 = line.utf8
        guard utf8.count >= 2, let type = utf8.first, type.isASCIILetter,
              utf8[utf8.index(after: utf8.startIndex)] == UInt8(ascii: "=")
        else {
            throw SDPError(line: number, "not a <type>=<value> line (RFC 8866 §5)", text: line)
        }
        let letter = Character(Unicode.Scalar(type))
        let value = Substring(line.utf8.dropFirst(2))
        guard sawVersion || letter == "v" else {
            throw SDPError(line: number, "a description must start with v=0 (RFC 8866 §5.1)", text: line)
        }
        switch letter {
        case "v":
            guard !sawVersion else { throw SDPError(line: number, "a second v= line", text: line) }
            guard value == "0" else { throw SDPError(line: number, "version \(value), only v=0 exists (RFC 8866 §5.1)", text: line) }
            sawVersion = true
        case "o":
            try sessionOnly(line, number)
            guard !sawOrigin else { throw SDPError(line: number, "a second o= line", text: line) }
            session.origin = try Self.origin(value, line: line, number: number)
            sawOrigin = true
        case "s":
            try sessionOnly(line, number)
            guard !sawName else { throw SDPError(line: number, "a second s= line", text: line) }
            session.sessionName = String(value)
            sawName = true
        case "t" where current == nil && !sawTiming:
            session.timing = String(value)
            sawTiming = true
        case "c":
            let connection = try Self.connection(value, line: line, number: number)
            if current != nil {
                try current?.setConnection(connection, line: line, number: number)
            } else {
                guard session.connection == nil else { throw SDPError(line: number, "a second session-level c= line", text: line) }
                session.connection = connection
            }
        case "m":
            try finishMedia()
            current = try MediaReader(mLine: value, line: line, number: number)
        case "a":
            if current != nil {
                try current?.attribute(value, line: line, number: number)
            } else {
                try sessionAttribute(value, line: line, number: number)
            }
        default:
            if current != nil {
                current?.media.otherLines.append(SDPLine(type: letter, value: String(value)))
            } else {
                session.otherLines.append(SDPLine(type: letter, value: String(value)))
            }
        }
    }

    private func sessionOnly(_ line: Substring, _ number: Int) throws(SDPError) {
        if current != nil { throw SDPError(line: number, "\(line.prefix(2)) belongs before the first m= line", text: line) }
    }

    private mutating func finishMedia() throws(SDPError) {
        if let reader = current { session.media.append(try reader.finish()) }
        current = nil
    }

    private mutating func finish() throws(SDPError) -> SessionDescription {
        guard sawVersion else { throw SDPError(line: 0, "empty description: no v=0 line") }
        guard sawOrigin else { throw SDPError(line: 0, "no o= line (RFC 8866 §5.2)") }
        try finishMedia()
        // Stored in the order they are written, so that a round trip keeps them (RFC 8866 §5 order).
        let beforeConnection = session.otherLines.filter { "iuep".contains($0.type) }
        let beforeTiming = session.otherLines.filter { $0.type == "b" }
        let afterTiming = session.otherLines.filter { !"iuepb".contains($0.type) }
        session.otherLines = beforeConnection + beforeTiming + afterTiming
        return session
    }

    // MARK: Session-level lines

    /// `o=<username> <sess-id> <sess-version> <nettype> <addrtype> <unicast-address>` (RFC 8866 §5.2).
    private static func origin(_ value: Substring, line: Substring, number: Int) throws(SDPError) -> Origin {
        let fields = value.fields()
        guard fields.count == 6 else {
            throw SDPError(line: number, "o= needs 6 fields (username, session id, version, network type, address type, address), found \(fields.count)", text: line)
        }
        guard let id = fields[1].uint64 else { throw SDPError(line: number, "o= session id \"\(fields[1])\" is not a number", text: line) }
        guard let version = fields[2].uint64 else {
            throw SDPError(line: number, "o= session version \"\(fields[2])\" is not a number", text: line)
        }
        return Origin(username: String(fields[0]), sessionID: id, sessionVersion: version, networkType: String(fields[3]),
                      addressType: String(fields[4]), address: String(fields[5]))
    }

    /// `c=<nettype> <addrtype> <connection-address>` (RFC 8866 §5.7).
    static func connection(_ value: Substring, line: Substring, number: Int) throws(SDPError) -> Connection {
        let fields = value.fields()
        guard fields.count == 3 else { throw SDPError(line: number, "c= needs network type, address type and address", text: line) }
        return Connection(networkType: String(fields[0]), addressType: String(fields[1]), address: String(fields[2]))
    }

    private mutating func sessionAttribute(_ value: Substring, line: Substring, number: Int) throws(SDPError) {
        let (name, attributeValue) = try Self.splitAttribute(value, line: line, number: number)
        let trimmed = attributeValue?.trimmedSpaces ?? ""
        switch name {
        case "ice-lite":
            session.iceLite = true
        case "group":
            let tokens = trimmed.fields()
            guard let semantics = tokens.first else { throw SDPError(line: number, "a=group without semantics (RFC 5888 §5)", text: line) }
            session.groups.append(MediaGroup(semantics: String(semantics), mids: tokens.dropFirst().map(String.init)))
        case "msid-semantic":
            let tokens = trimmed.fields()
            guard let semantic = tokens.first else { throw SDPError(line: number, "a=msid-semantic without a semantic", text: line) }
            guard session.msidSemantic == nil else { throw SDPError(line: number, "a second a=msid-semantic", text: line) }
            session.msidSemantic = MSIDSemantic(semantic: String(semantic), identifiers: tokens.dropFirst().map(String.init))
        case "fingerprint":
            session.fingerprints.append(try Self.fingerprint(trimmed, line: line, number: number))
        case "ice-ufrag":
            session.iceUfrag = try Self.single(session.iceUfrag, String(trimmed), name, line: line, number: number)
        case "ice-pwd":
            session.icePwd = try Self.single(session.icePwd, String(trimmed), name, line: line, number: number)
        case "ice-options":
            session.iceOptions += trimmed.fields().map(String.init)
        case "setup":
            session.setup = try Self.single(session.setup, try Self.setup(trimmed, line: line, number: number), name, line: line, number: number)
        case "extmap-allow-mixed":
            session.extmapAllowMixed = true
        case "sendrecv", "sendonly", "recvonly", "inactive":
            session.direction = try Self.single(session.direction, MediaDirection(rawValue: name), "direction", line: line, number: number)
        default:
            session.attributes.append(SDPAttribute(name: name, value: attributeValue.map(String.init)))
        }
    }

    // MARK: Helpers shared with MediaReader

    /// `a=<name>` or `a=<name>:<value>` (RFC 8866 §5.13).
    static func splitAttribute(_ value: Substring, line: Substring, number: Int) throws(SDPError) -> (String, Substring?) {
        let name: Substring
        let rest: Substring?
        if let (before, after) = value.splitOnce(UInt8(ascii: ":")) {
            name = before
            rest = after
        } else {
            name = value
            rest = nil
        }
        guard !name.isEmpty else { throw SDPError(line: number, "an attribute without a name", text: line) }
        return (String(name), rest)
    }

    /// An attribute that may appear once: a repeat must say the same thing.
    static func single<T: Equatable>(_ existing: T?, _ new: T?, _ name: String, line: Substring, number: Int) throws(SDPError) -> T? {
        guard let new else { return existing }
        if let existing, existing != new {
            throw SDPError(line: number, "a second a=\(name) that disagrees with the first", text: line)
        }
        guard !((new as? String)?.isEmpty ?? false) else { throw SDPError(line: number, "a=\(name) without a value", text: line) }
        return new
    }

    /// `a=fingerprint:<hash-func> <fingerprint>` (RFC 8122 §5).
    static func fingerprint(_ value: Substring, line: Substring, number: Int) throws(SDPError) -> Fingerprint {
        let fields = value.fields()
        guard fields.count == 2 else { throw SDPError(line: number, "a=fingerprint needs a hash function and a value (RFC 8122 §5)", text: line) }
        return Fingerprint(hashFunction: String(fields[0]), value: String(fields[1]))
    }

    /// `a=setup:active|passive|actpass|holdconn` (RFC 4145 §4).
    static func setup(_ value: Substring, line: Substring, number: Int) throws(SDPError) -> SetupRole {
        guard let role = SetupRole(rawValue: value.lowercased()) else {
            throw SDPError(line: number, "a=setup:\(value) is not active, passive, actpass or holdconn (RFC 4145 §4)", text: line)
        }
        return role
    }
}

extension Substring {
    /// The line without surrounding spaces, tabs and the CR of a CRLF ending.
    var trimmingLineSpace: Substring {
        let bytes = utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
        while start < end, isSpace(bytes[start]) { start = bytes.index(after: start) }
        while end > start, isSpace(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return Substring(bytes[start..<end])
    }
}
