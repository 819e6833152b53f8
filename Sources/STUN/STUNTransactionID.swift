/// The 96-bit transaction ID that pairs a response with its request (RFC 8489 §5, §6).
///
/// Stored as two integers so that looking one up allocates nothing.
public struct STUNTransactionID: Hashable, Sendable, CustomStringConvertible {
    private let high: UInt32
    private let low: UInt64

    /// The ID from its 12 bytes; nil for another length.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 12 else { return nil }
        self.init(folding: bytes)
    }

    /// Folds the bytes into the two integers; only called with 12 bytes.
    init(folding bytes: some Collection<UInt8>) {
        var high: UInt32 = 0
        var low: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            if index < 4 { high = high << 8 | UInt32(byte) } else { low = low << 8 | UInt64(byte) }
        }
        self.high = high
        self.low = low
    }

    /// A fresh random ID. RFC 8489 §6 asks for one uniformly and cryptographically random, so an
    /// off-path attacker cannot forge a response: pass `SystemRandomNumberGenerator` outside tests.
    public init(using generator: inout some RandomNumberGenerator) {
        high = UInt32(truncatingIfNeeded: generator.next())
        low = generator.next()
    }

    /// A fresh ID from the system's secure generator.
    public static func random() -> STUNTransactionID {
        var generator = SystemRandomNumberGenerator()
        return STUNTransactionID(using: &generator)
    }

    /// The 12 bytes as written in the header.
    public var bytes: [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: high >> (8 * UInt32(3 - $0))) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (8 * UInt64(7 - $0))) }
    }

    /// Lower-case hex, as Wireshark shows it.
    public var description: String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
