/// A receiver report (RFC 3550 §6.4.2): reception statistics from a participant that does not
/// send, which is what a recording worker is.
///
/// ```
/// |V=2|P|    RC   |   PT=RR=201   |             length            |
/// |                     SSRC of packet sender                     |
/// +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
/// |                 report blocks (RC × 24 bytes)                 |
/// |                  profile-specific extensions                  |
/// ```
public struct RTCPReceiverReport: Sendable, Equatable {
    public var ssrc: UInt32
    public var reports: [RTCPReceptionReport]
    public var profileExtensions: [UInt8]

    public init(ssrc: UInt32, reports: [RTCPReceptionReport] = [], profileExtensions: [UInt8] = []) {
        self.ssrc = ssrc
        self.reports = reports
        self.profileExtensions = profileExtensions
    }

    init(count: UInt8, reader: inout ByteReader) throws(RTPParseError) {
        ssrc = try reader.uint32("RR SSRC")
        reports = try RTCPReceptionReport.readBlocks(count: count, reader: &reader)
        profileExtensions = try reader.bytes(reader.remaining, "RR profile extensions")
    }

    func marshal(into writer: inout ByteWriter) throws(RTPParseError) {
        try RTCPReceptionReport.checkWritable(reports, extensions: profileExtensions, packet: "RR")
        RTCPPacket.header(count: UInt8(reports.count), packetType: RTCPPacket.PacketType.receiverReport,
                          bodyBytes: 4 + reports.count * RTCPReceptionReport.size + profileExtensions.count, into: &writer)
        writer.uint32(ssrc)
        for report in reports { try report.marshal(into: &writer) }
        writer.append(profileExtensions)
    }
}
