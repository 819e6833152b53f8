/// Why bytes are not a well-formed DTLS record. The description names what is wrong.
public enum DTLSRecordError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A header or fragment needed more bytes than were left.
    case truncated(String, needed: Int, available: Int)
    /// The first byte is not a content type DTLS defines (a DTLS 1.3 unified header, 0b001xxxxx,
    /// lands here: OpenSSL 3.0 cannot read those).
    case unknownContentType(UInt8)
    /// The version is not a DTLS version (0xFEFF...0xFEFC).
    case badVersion(UInt16)
    /// The length is above 2^14 + 2048 (RFC 6347 §4.1).
    case tooLong(Int)

    /// What is wrong, naming the field.
    public var description: String {
        switch self {
        case .truncated(let what, let needed, let available): "truncated: \(what) needs \(needed) bytes, \(available) left"
        case .unknownContentType(let type): "unknown DTLS content type \(type)"
        case .badVersion(let version): "version 0x\(String(version, radix: 16)) is not DTLS"
        case .tooLong(let length): "record length \(length) is above \(DTLSRecordHeader.maximumLength)"
        }
    }
}
