/// `a=simulcast` (RFC 8853 §5.1): the RIDs the writer sends and receives as simulcast.
///
/// ```
/// sc-value     = ( sc-send [SP sc-recv] ) / ( sc-recv [SP sc-send] )
/// sc-send      = %s"send" SP sc-str-list
/// sc-recv      = %s"recv" SP sc-str-list
/// sc-str-list  = sc-alt-list *( ";" sc-alt-list )
/// sc-alt-list  = sc-id *( "," sc-id )
/// sc-id        = [sc-id-paused] rid-id          ; sc-id-paused = "~"
/// ```
/// Each element of `send`/`recv` is one stream with its alternatives, in preference order.
public struct Simulcast: Sendable, Equatable {
    /// One RID of a simulcast list; `paused` is the `~` prefix.
    public struct Stream: Sendable, Equatable {
        /// The RID.
        public var rid: String
        /// Whether the stream starts paused.
        public var paused: Bool

        /// A simulcast stream.
        public init(rid: String, paused: Bool = false) {
            self.rid = rid
            self.paused = paused
        }
    }

    /// The streams the writer sends.
    public var send: [[Stream]]
    /// The streams the writer receives.
    public var recv: [[Stream]]

    /// A simulcast attribute.
    public init(send: [[Stream]] = [], recv: [[Stream]] = []) {
        self.send = send
        self.recv = recv
    }

    /// Reads the attribute's value. Also accepts draft-03's `send rid=a;b` form, which older
    /// Firefox wrote.
    init?(parsing value: String) {
        let tokens = value.split(separator: " ", omittingEmptySubsequences: true)
        guard !tokens.isEmpty, tokens.count % 2 == 0 else { return nil }
        var send: [[Stream]]?
        var recv: [[Stream]]?
        var index = 0
        while index < tokens.count {
            var list = tokens[index + 1]
            if list.hasPrefix("rid=") { list = list.dropFirst(4) }
            guard let streams = Simulcast.parseList(list) else { return nil }
            switch tokens[index] {
            case "send" where send == nil: send = streams
            case "recv" where recv == nil: recv = streams
            default: return nil
            }
            index += 2
        }
        self.send = send ?? []
        self.recv = recv ?? []
    }

    private static func parseList(_ list: Substring) -> [[Stream]]? {
        var result: [[Stream]] = []
        for alternatives in list.split(separator: ";", omittingEmptySubsequences: false) {
            var streams: [Stream] = []
            for id in alternatives.split(separator: ",", omittingEmptySubsequences: false) {
                let paused = id.hasPrefix("~")
                let rid = paused ? id.dropFirst() : id
                guard RID.isValidID(rid) else { return nil }
                streams.append(Stream(rid: String(rid), paused: paused))
            }
            result.append(streams)
        }
        return result
    }

    var text: String {
        func list(_ streams: [[Stream]]) -> String {
            streams.map { $0.map { ($0.paused ? "~" : "") + $0.rid }.joined(separator: ",") }.joined(separator: ";")
        }
        var parts: [String] = []
        if !send.isEmpty { parts.append("send \(list(send))") }
        if !recv.isEmpty { parts.append("recv \(list(recv))") }
        return parts.joined(separator: " ")
    }
}

extension RID {
    /// RFC 8851 §10: `rid-id = 1*(alpha-numeric / "-" / "_")`.
    public static func isValidID(_ id: some StringProtocol) -> Bool {
        !id.isEmpty && id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F
        }
    }
}
