/// A reception report block, carried by SR and RR (RFC 3550 §6.4.1).
///
/// ```
/// +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
/// |                 SSRC_1 (SSRC of first source)                 |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// | fraction lost |       cumulative number of packets lost       |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |           extended highest sequence number received           |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                      interarrival jitter                      |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                         last SR (LSR)                         |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                   delay since last SR (DLSR)                  |
/// +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
/// ```
public struct RTCPReceptionReport: Sendable, Equatable {
    public var ssrc: UInt32
    public var fractionLost: UInt8
    /// A signed 24-bit count (duplicates can make it negative).
    public var cumulativeLost: Int32
    public var extendedHighestSequence: UInt32
    public var jitter: UInt32
    public var lastSenderReport: UInt32
    public var delaySinceLastSenderReport: UInt32

    public init(ssrc: UInt32, fractionLost: UInt8 = 0, cumulativeLost: Int32 = 0, extendedHighestSequence: UInt32 = 0,
                jitter: UInt32 = 0, lastSenderReport: UInt32 = 0, delaySinceLastSenderReport: UInt32 = 0)
    {
        self.ssrc = ssrc
        self.fractionLost = fractionLost
        self.cumulativeLost = cumulativeLost
        self.extendedHighestSequence = extendedHighestSequence
        self.jitter = jitter
        self.lastSenderReport = lastSenderReport
        self.delaySinceLastSenderReport = delaySinceLastSenderReport
    }

    static let size = 24

    /// The `count` report blocks of a sender or receiver report.
    static func readBlocks(count: UInt8, reader: inout ByteReader) throws(RTPParseError) -> [RTCPReceptionReport] {
        var reports: [RTCPReceptionReport] = []
        for _ in 0..<count { reports.append(try RTCPReceptionReport(reader: &reader)) }
        return reports
    }

    /// What a report must satisfy to be written: at most 31 blocks (the 5-bit count), and
    /// profile extensions in whole 32-bit words.
    static func checkWritable(_ reports: [RTCPReceptionReport], extensions: [UInt8], packet: String) throws(RTPParseError) {
        guard reports.count < 32 else { throw .invalid("\(reports.count) report blocks, at most 31") }
        guard extensions.count % 4 == 0 else { throw .invalid("\(packet) extensions are not 32-bit aligned") }
    }

    init(reader: inout ByteReader) throws(RTPParseError) {
        ssrc = try reader.uint32("report block SSRC")
        fractionLost = try reader.uint8("fraction lost")
        let lost = try reader.uint24("cumulative lost")
        // Sign-extend the 24-bit field.
        cumulativeLost = Int32(bitPattern: lost & 0x80_0000 != 0 ? lost | 0xFF00_0000 : lost)
        extendedHighestSequence = try reader.uint32("extended highest sequence")
        jitter = try reader.uint32("jitter")
        lastSenderReport = try reader.uint32("LSR")
        delaySinceLastSenderReport = try reader.uint32("DLSR")
    }

    func marshal(into writer: inout ByteWriter) throws(RTPParseError) {
        guard (-0x80_0000...0x7F_FFFF).contains(cumulativeLost) else {
            throw .invalid("cumulative lost \(cumulativeLost) does not fit 24 bits")
        }
        writer.uint32(ssrc)
        writer.uint8(fractionLost)
        writer.uint24(UInt32(bitPattern: cumulativeLost) & 0xFF_FFFF)
        writer.uint32(extendedHighestSequence)
        writer.uint32(jitter)
        writer.uint32(lastSenderReport)
        writer.uint32(delaySinceLastSenderReport)
    }
}
