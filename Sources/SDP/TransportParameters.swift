/// The local ICE and DTLS parameters that go into every accepted media section: one set for
/// the whole BUNDLE transport (RFC 9143 §7.1.3; mediasoup-client does the same).
public struct TransportParameters: Sendable, Equatable {
    /// `a=ice-ufrag`: 4–256 ice-chars (RFC 8839 §5.4).
    public var iceUfrag: String
    /// `a=ice-pwd`: 22–256 ice-chars (RFC 8839 §5.4). Chromium refuses other characters.
    public var icePwd: String
    /// The certificate's fingerprints; at least one, upper-case hex with colons.
    public var fingerprints: [Fingerprint]
    /// The local candidates; the first is also written into `m=` and `c=` as the default.
    public var candidates: [HostCandidate]

    /// Transport parameters; `validate()` checks them.
    public init(iceUfrag: String, icePwd: String, fingerprints: [Fingerprint], candidates: [HostCandidate]) {
        self.iceUfrag = iceUfrag
        self.icePwd = icePwd
        self.fingerprints = fingerprints
        self.candidates = candidates
    }

    /// Throws when a peer would refuse these parameters.
    public func validate() throws(NegotiationError) {
        guard (4...256).contains(iceUfrag.utf8.count), iceUfrag.utf8.allSatisfy(Self.isICEChar) else {
            throw NegotiationError("local ice-ufrag must be 4 to 256 characters from A-Z a-z 0-9 + / (RFC 8839 §5.4)")
        }
        guard (22...256).contains(icePwd.utf8.count), icePwd.utf8.allSatisfy(Self.isICEChar) else {
            throw NegotiationError("local ice-pwd must be 22 to 256 characters from A-Z a-z 0-9 + / (RFC 8839 §5.4)")
        }
        guard !fingerprints.isEmpty else { throw NegotiationError("no local DTLS fingerprint (RFC 8122 §5)") }
        for fingerprint in fingerprints where fingerprint.digest == nil || fingerprint.hashFunction.isEmpty {
            throw NegotiationError("local fingerprint \"\(fingerprint.value)\" is not hex pairs joined by colons (RFC 8122 §5)")
        }
    }

    /// RFC 8839 §5.4: `ice-char = ALPHA / DIGIT / "+" / "/"`.
    static func isICEChar(_ byte: UInt8) -> Bool {
        byte.isASCIILetter || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
    }

    /// Fresh random credentials: an 8-character ufrag and a 24-character password (more than the
    /// 24 and 128 bits of randomness RFC 8445 §5.3 asks for).
    public static func randomCredentials(using generator: inout some RandomNumberGenerator) -> (ufrag: String, pwd: String) {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        func word(_ count: Int) -> String {
            String((0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
        }
        return (word(8), word(24))
    }

    /// Writes these parameters into an accepted media section.
    func apply(to media: inout MediaDescription, setup: SetupRole) {
        if let first = candidates.first {
            media.port = first.port
            media.connection = Connection(address: first.address)
        } else {
            media.port = 9
            media.connection = Connection(address: "0.0.0.0")
        }
        media.candidates = candidates.map(\.value)
        media.endOfCandidates = true
        media.iceUfrag = iceUfrag
        media.icePwd = icePwd
        media.fingerprints = fingerprints
        media.setup = setup
    }
}
