/// A certificate fingerprint as SDP carries it in `a=fingerprint:` (RFC 8122 §5): a hash
/// function's name and the digest of the DER certificate, written as upper-case hex pairs joined
/// by colons.
///
/// ```
/// fingerprint-attribute  =  "fingerprint" ":" hash-func SP fingerprint
/// hash-func              =  "sha-1" / "sha-224" / "sha-256" / "sha-384" / "sha-512" / ...
/// fingerprint            =  2UHEX *(":" 2UHEX)
/// ```
public struct DTLSFingerprint: Sendable, Hashable, CustomStringConvertible {
    /// A hash function RFC 8122 §5 names and OpenSSL computes (MD5 and MD2 are refused).
    public enum Algorithm: String, Sendable, CaseIterable {
        /// SHA-1 (allowed by RFC 8122; aiortc and old peers may send it).
        case sha1 = "sha-1"
        /// SHA-224.
        case sha224 = "sha-224"
        /// SHA-256: what browsers send.
        case sha256 = "sha-256"
        /// SHA-384.
        case sha384 = "sha-384"
        /// SHA-512.
        case sha512 = "sha-512"

        /// The digest length in bytes.
        public var digestLength: Int {
            switch self {
            case .sha1: 20
            case .sha224: 28
            case .sha256: 32
            case .sha384: 48
            case .sha512: 64
            }
        }
    }

    /// The hash function.
    public let algorithm: Algorithm
    /// The digest of the DER-encoded certificate.
    public let digest: [UInt8]

    /// A fingerprint from a digest; throws if its length is not the algorithm's.
    public init(algorithm: Algorithm, digest: [UInt8]) throws(DTLSError) {
        guard digest.count == algorithm.digestLength else {
            throw DTLSError.invalidFingerprint.with("a \(algorithm.rawValue) fingerprint has \(algorithm.digestLength) bytes, not \(digest.count)")
        }
        self.algorithm = algorithm
        self.digest = digest
    }

    /// Reads SDP's two fields, e.g. `sha-256` and `AB:CD:...`. Names and hex digits are read in
    /// either case (RFC 8122 §5 allows lower case on receipt; janus compares the same way).
    public init(algorithm name: String, value: String) throws(DTLSError) {
        guard let algorithm = Algorithm(rawValue: name.lowercased()) else {
            throw DTLSError.invalidFingerprint.with("unsupported fingerprint hash function \(name)")
        }
        var digest: [UInt8] = []
        for pair in value.split(separator: ":", omittingEmptySubsequences: false) {
            let digits = Array(pair.utf8)
            guard digits.count == 2, let high = Self.nibble(digits[0]), let low = Self.nibble(digits[1]) else {
                throw DTLSError.invalidFingerprint.with("\(name) fingerprint \(value) is not colon-separated hex pairs")
            }
            digest.append(high << 4 | low)
        }
        try self.init(algorithm: algorithm, digest: digest)
    }

    /// Reads the value of an `a=fingerprint:` attribute, e.g. `sha-256 AB:CD:...`.
    public init(attribute: String) throws(DTLSError) {
        let fields = attribute.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count == 2 else { throw DTLSError.invalidFingerprint.with("fingerprint attribute \(attribute) is not 'hash-func fingerprint'") }
        try self.init(algorithm: String(fields[0]), value: String(fields[1]))
    }

    /// The digest as SDP writes it: upper-case hex pairs joined by colons.
    public var value: String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(digest.count * 3)
        for (index, byte) in digest.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ":")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The `a=fingerprint:` attribute value: `sha-256 AB:CD:...`.
    public var description: String { "\(algorithm.rawValue) \(value)" }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
