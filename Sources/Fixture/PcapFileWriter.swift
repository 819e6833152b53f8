import Foundation

/// Writes a classic libpcap file (https://www.tcpdump.org/manpages/pcap-savefile.5.txt) of UDP
/// datagrams as they arrive: the header when it opens, then one `write(2)` a record and no
/// buffering, so a capture killed at any moment leaves a file `PcapReader` reads up to its last
/// whole record (a torn last record is what it reports as truncation).
///
/// Records are raw IPv4 (LINKTYPE_RAW, 101, https://www.tcpdump.org/linktypes.html): an IPv4
/// header (RFC 791 §3.1) and a UDP header (RFC 768) around each payload, with nanosecond time
/// stamps, little-endian. tcpdump and Wireshark read it as it is.
public final class PcapFileWriter {
    public let path: String
    /// Records written.
    public private(set) var records = 0
    /// The file's size so far.
    public private(set) var bytesWritten: Int64 = 0
    private var descriptor: Int32

    /// The largest UDP payload IPv4 can frame: 65,535 − 20 (IPv4 header) − 8 (UDP header).
    public static let maximumPayload = 65_507
    /// LINKTYPE_RAW: each record starts with its IP header.
    public static let linkType: UInt32 = 101

    /// Creates (or empties) the file and writes its header.
    public init(path: String) throws(FixtureError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FixtureError(.cannotWrite(path: path, problem: String(cString: strerror(errno)))) }
        try write(PcapFileWriter.fileHeader())
    }

    deinit { close() }

    /// Appends one datagram received at `seconds` + `nanoseconds` (Unix time), from and to
    /// loopback at the given ports.
    public func append(payload: [UInt8], seconds: UInt32, nanoseconds: UInt32, sourcePort: UInt16, destinationPort: UInt16)
        throws(FixtureError)
    {
        guard payload.count <= PcapFileWriter.maximumPayload else {
            throw FixtureError(.cannotWrite(path: path, problem: "a \(payload.count)-byte datagram is larger than UDP over IPv4 can carry"))
        }
        try write(PcapFileWriter.record(payload: payload, seconds: seconds, nanoseconds: min(nanoseconds, 999_999_999),
                                        sourcePort: sourcePort, destinationPort: destinationPort))
        records += 1
    }

    /// Closes the file; later appends fail.
    public func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    /// The 24-byte file header: the nanosecond magic, version 2.4, no time zone offset, a snap
    /// length no datagram reaches, and the link type.
    public static func fileHeader() -> [UInt8] {
        le32(0xA1B2_3C4D) + le16(2) + le16(4) + le32(0) + le32(0) + le32(262_144) + le32(linkType)
    }

    /// One record: its 16-byte header, then the IPv4 and UDP headers and the payload.
    public static func record(payload: [UInt8], seconds: UInt32, nanoseconds: UInt32, sourcePort: UInt16, destinationPort: UInt16) -> [UInt8] {
        let loopback: [UInt8] = [127, 0, 0, 1]
        // RFC 791 §3.1: version 4, 5 words of header, total length, no fragmentation (DF), TTL 64, UDP.
        var ip: [UInt8] = [0x45, 0] + be16(UInt16(20 + 8 + payload.count)) + [0, 0, 0x40, 0, 64, 17, 0, 0] + loopback + loopback
        let checksum = internetChecksum(ip)
        ip[10] = UInt8(checksum >> 8)
        ip[11] = UInt8(checksum & 0xFF)
        // RFC 768: a zero checksum means none was computed, which IPv4 allows.
        let udp = be16(sourcePort) + be16(destinationPort) + be16(UInt16(8 + payload.count)) + [0, 0]
        let length = UInt32(ip.count + udp.count + payload.count)
        return le32(seconds) + le32(nanoseconds) + le32(length) + le32(length) + ip + udp + payload
    }

    /// The ones' complement sum of 16-bit words (RFC 1071), for the IPv4 header.
    static func internetChecksum(_ bytes: [UInt8]) -> UInt16 {
        var sum: UInt32 = 0
        for index in stride(from: 0, to: bytes.count - 1, by: 2) { sum += UInt32(bytes[index]) << 8 | UInt32(bytes[index + 1]) }
        if bytes.count % 2 == 1, let last = bytes.last { sum += UInt32(last) << 8 }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        return ~UInt16(sum)
    }

    private func write(_ bytes: [UInt8]) throws(FixtureError) {
        guard descriptor >= 0 else { throw FixtureError(.cannotWrite(path: path, problem: "the file is closed")) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw FixtureError(.cannotWrite(path: path, problem: String(cString: strerror(errno))))
            }
            offset += written
        }
        bytesWritten += Int64(bytes.count)
    }

    private static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    private static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
}
