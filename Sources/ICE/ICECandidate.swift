import Net

/// One ICE candidate as written in SDP (`a=candidate:`, RFC 8839 §5.1) and in trickled
/// `RTCIceCandidate.candidate` strings.
///
/// ```
/// candidate-attribute = "candidate" ":" foundation SP component-id SP transport SP priority SP
///                       connection-address SP port SP "typ" SP cand-type
///                       [SP "raddr" SP connection-address] [SP "rport" SP port]
///                       *(SP extension-att-name SP extension-att-value)
/// ```
/// For example `candidate:1 1 udp 2130706431 127.0.0.1 40000 typ host generation 0`. libwebrtc
/// adds the extensions `generation`, `ufrag`, `network-id` and `network-cost`, and `tcptype` on TCP
/// candidates (RFC 6544 §4.5); those are typed here, and any other extension pair is kept as it
/// came. The address may be an mDNS name (`<uuid>.local`) rather than an IP address.
public struct ICECandidate: Sendable, Hashable, CustomStringConvertible, LosslessStringConvertible {
    /// An extension pair this code does not interpret.
    public struct Extension: Sendable, Hashable {
        /// The extension's name, a token.
        public var name: String
        /// Its value, any visible characters.
        public var value: String

        /// A pair from its parts.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Groups candidates that share a base and type (1–32 `ice-char`s).
    public var foundation: String
    /// 1 for RTP, which with rtcp-mux and BUNDLE is the only component Revue uses.
    public var component: UInt16
    /// `udp` or `tcp`, as written (compared without case).
    public var transport: String
    /// Higher is preferred (RFC 8445 §5.1.2).
    public var priority: UInt32
    /// An IP address or a host name.
    public var address: String
    /// The port.
    public var port: UInt16
    /// host, srflx, prflx, relay.
    public var type: ICECandidateType
    /// `raddr`: the base of a reflexive or relayed candidate.
    public var relatedAddress: String?
    /// `rport`.
    public var relatedPort: UInt16?
    /// `tcptype`: active, passive or so (RFC 6544 §4.5).
    public var tcpType: String?
    /// libwebrtc's `generation`: bumped by an ICE restart.
    public var generation: UInt32?
    /// libwebrtc's `ufrag`: the credentials this candidate belongs to.
    public var ufrag: String?
    /// libwebrtc's `network-id`.
    public var networkID: UInt32?
    /// libwebrtc's `network-cost`.
    public var networkCost: UInt32?
    /// Other extension pairs, in the order they came.
    public var extensions: [Extension]

    /// A candidate from its parts.
    public init(foundation: String, component: UInt16 = 1, transport: String = "udp", priority: UInt32, address: String,
                port: UInt16, type: ICECandidateType, relatedAddress: String? = nil, relatedPort: UInt16? = nil,
                tcpType: String? = nil, generation: UInt32? = nil, ufrag: String? = nil, networkID: UInt32? = nil,
                networkCost: UInt32? = nil, extensions: [Extension] = []) {
        self.foundation = foundation
        self.component = component
        self.transport = transport
        self.priority = priority
        self.address = address
        self.port = port
        self.type = type
        self.relatedAddress = relatedAddress
        self.relatedPort = relatedPort
        self.tcpType = tcpType
        self.generation = generation
        self.ufrag = ufrag
        self.networkID = networkID
        self.networkCost = networkCost
        self.extensions = extensions
    }

    /// The priority formula of RFC 8445 §5.1.2.1:
    /// `2^24 · type preference + 2^8 · local preference + (256 − component)`.
    /// A host candidate with the top local preference on component 1 gets 2130706431.
    public static func priority(type: ICECandidateType, localPreference: UInt16 = 65535, component: UInt16 = 1) -> UInt32 {
        type.typePreference << 24 | UInt32(localPreference) << 8 | (256 - UInt32(min(max(component, 1), 256)))
    }

    /// The address and port, when the address is an IP address rather than a name.
    public var socketAddress: SocketAddress? {
        IPAddress(address).map { SocketAddress(ip: $0, port: port) }
    }

    /// True for UDP candidates, the only ones a one-port UDP server and client use.
    public var isUDP: Bool { transport.lowercased() == "udp" }

    // MARK: Parsing

    /// Parses the attribute value, with or without the `a=` and `candidate:` prefixes, and with
    /// surrounding white space (a trailing CR, say) ignored.
    public init(parsing text: some StringProtocol) throws(ICECandidateError) {
        var line = Substring(text).trimmingWhitespace()
        if line.hasPrefix("a=") { line = line.dropFirst(2) }
        if line.hasPrefix("candidate:") { line = line.dropFirst("candidate:".count) }
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard fields.count >= 8 else { throw ICECandidateError("\(fields.count) fields, at least 8 (through \"typ <type>\")") }

        foundation = fields[0]
        guard (1...32).contains(foundation.utf8.count), foundation.utf8.allSatisfy({ ICECredentials.characters.contains($0) }) else {
            throw ICECandidateError("foundation \"\(foundation)\" is not 1–32 ice-chars")
        }
        guard let component = Self.number(fields[1], digits: 3, as: UInt16.self), (1...256).contains(component) else {
            throw ICECandidateError("component \"\(fields[1])\" is not 1–256")
        }
        self.component = component
        transport = fields[2]
        guard Self.isToken(transport) else { throw ICECandidateError("transport \"\(transport)\" is not a token") }
        guard let priority = Self.number(fields[3], digits: 10, as: UInt32.self) else {
            throw ICECandidateError("priority \"\(fields[3])\" is not a 32-bit number")
        }
        self.priority = priority
        address = fields[4]
        guard let port = Self.number(fields[5], digits: 5, as: UInt16.self) else {
            throw ICECandidateError("port \"\(fields[5])\" is not 0–65535")
        }
        self.port = port
        guard fields[6] == "typ" else { throw ICECandidateError("\"typ\" expected, found \"\(fields[6])\"") }
        guard Self.isToken(fields[7]) else { throw ICECandidateError("type \"\(fields[7])\" is not a token") }
        type = ICECandidateType(sdpName: fields[7])

        relatedAddress = nil
        relatedPort = nil
        tcpType = nil
        generation = nil
        ufrag = nil
        networkID = nil
        networkCost = nil
        extensions = []
        var index = 8
        var seen: Set<String> = []
        while index < fields.count {
            let name = fields[index]
            guard index + 1 < fields.count else { throw ICECandidateError("extension \"\(name)\" has no value") }
            let value = fields[index + 1]
            index += 2
            guard Self.isToken(name) else { throw ICECandidateError("extension name \"\(name)\" is not a token") }
            func numeric<T: FixedWidthInteger>(_ type: T.Type, digits: Int) throws(ICECandidateError) -> T {
                guard let number = Self.number(value, digits: digits, as: T.self) else {
                    throw ICECandidateError("\(name) \"\(value)\" is not a number")
                }
                return number
            }
            let known = ["raddr", "rport", "tcptype", "generation", "ufrag", "network-id", "network-cost"]
            if known.contains(name) {
                guard seen.insert(name).inserted else { throw ICECandidateError("\(name) appears twice") }
            }
            switch name {
            case "raddr": relatedAddress = value
            case "rport": relatedPort = try numeric(UInt16.self, digits: 5)
            case "tcptype": tcpType = value
            case "generation": generation = try numeric(UInt32.self, digits: 10)
            case "ufrag": ufrag = value
            case "network-id": networkID = try numeric(UInt32.self, digits: 10)
            case "network-cost": networkCost = try numeric(UInt32.self, digits: 10)
            default: extensions.append(Extension(name: name, value: value))
            }
        }
    }

    /// Parses like `init(parsing:)`; nil for a line that is not a candidate.
    public init?(_ description: String) {
        guard let candidate = try? ICECandidate(parsing: description) else { return nil }
        self = candidate
    }

    /// `candidate:…` in libwebrtc's field order, which aiortc also uses.
    public var description: String {
        var parts = ["candidate:\(foundation)", "\(component)", transport, "\(priority)", address, "\(port)", "typ", "\(type)"]
        if let relatedAddress { parts += ["raddr", relatedAddress] }
        if let relatedPort { parts += ["rport", "\(relatedPort)"] }
        if let tcpType { parts += ["tcptype", tcpType] }
        if let generation { parts += ["generation", "\(generation)"] }
        if let ufrag { parts += ["ufrag", ufrag] }
        if let networkID { parts += ["network-id", "\(networkID)"] }
        if let networkCost { parts += ["network-cost", "\(networkCost)"] }
        for pair in extensions { parts += [pair.name, pair.value] }
        return parts.joined(separator: " ")
    }

    /// A decimal number of at most `digits` digits that fits `T`; no sign, no spaces.
    private static func number<T: FixedWidthInteger>(_ text: String, digits: Int, as type: T.Type) -> T? {
        guard (1...digits).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return T(text)
    }

    /// RFC 3261's token characters.
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || Array("-.!%*_+`'~".utf8).contains(byte)
        }
    }
}

extension Substring {
    /// The text without leading and trailing spaces, tabs, CRs and LFs.
    fileprivate func trimmingWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
