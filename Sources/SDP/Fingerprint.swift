/// `a=fingerprint:<hash-function> <fingerprint>` (RFC 8122 §5): the digest of the certificate
/// the writer will present in DTLS. Several may be given, one per hash function (aiortc 1.16
/// sends sha-256, sha-384 and sha-512).
public struct Fingerprint: Sendable, Equatable {
    /// The hash function's name as written, for example `sha-256`.
    public var hashFunction: String
    /// Upper-case hex pairs joined by colons, as RFC 8122 §5 writes them.
    public var value: String

    /// A fingerprint as written.
    public init(hashFunction: String, value: String) {
        self.hashFunction = hashFunction
        self.value = value
    }

    /// A fingerprint from a digest, written upper-case with colons (RFC 8122 §5).
    public init(hashFunction: String = "sha-256", digest: [UInt8]) {
        let hex: [Character] = Array("0123456789ABCDEF")
        self.hashFunction = hashFunction
        value = digest.map { String([hex[Int($0 >> 4)], hex[Int($0 & 0x0F)]]) }.joined(separator: ":")
    }

    /// The digest bytes, or nil when the value is not colon-separated hex pairs. Case is ignored,
    /// because RFC 8122 §5 lets readers accept lower case.
    public var digest: [UInt8]? {
        var bytes: [UInt8] = []
        for pair in value.split(separator: ":", omittingEmptySubsequences: false) {
            guard pair.utf8.count == 2, pair.utf8.allSatisfy(\.isHexDigit), let byte = UInt8(pair, radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : bytes
    }

    /// Whether `digest`, computed with this fingerprint's hash function, is the one announced.
    public func matches(_ digest: [UInt8]) -> Bool { self.digest == digest }
}
