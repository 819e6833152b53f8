/// A sender report (RFC 3550 §6.4.1): it ties the sender's RTP timestamps to its NTP wall clock,
/// which is how streams of one sender are put on one timeline.
///
/// ```
/// |V=2|P|    RC   |   PT=SR=200   |             length            |
/// |                         SSRC of sender                        |
/// +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
/// |              NTP timestamp, most significant word             |
/// |             NTP timestamp, least significant word             |
/// |                         RTP timestamp                         |
/// |                     sender's packet count                     |
/// |                      sender's octet count                     |
/// +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
/// |                 report blocks (RC × 24 bytes)                 |
/// |                  profile-specific extensions                  |
/// ```
public struct RTCPSenderReport: Sendable, Equatable {
    public var ssrc: UInt32
    public var ntpTimestamp: NTPTimestamp
    public var rtpTimestamp: UInt32
    public var packetCount: UInt32
    public var octetCount: UInt32
    public var reports: [RTCPReceptionReport]
    /// Profile-specific extension bytes after the report blocks (a multiple of 4).
    public var profileExtensions: [UInt8]

    public init(ssrc: UInt32, ntpTimestamp: NTPTimestamp, rtpTimestamp: UInt32, packetCount: UInt32, octetCount: UInt32,
                reports: [RTCPReceptionReport] = [], profileExtensions: [UInt8] = [])
    {
        self.ssrc = ssrc
        self.ntpTimestamp = ntpTimestamp
        self.rtpTimestamp = rtpTimestamp
        self.packetCount = packetCount
        self.octetCount = octetCount
        self.reports = reports
        self.profileExtensions = profileExtensions
    }

    init(count: UInt8, reader: inout ByteReader) throws(RTPParseError) {
        ssrc = try reader.uint32("SR SSRC")
        ntpTimestamp = NTPTimestamp(seconds: try reader.uint32("NTP seconds"), fraction: try reader.uint32("NTP fraction"))
        rtpTimestamp = try reader.uint32("SR RTP timestamp")
        packetCount = try reader.uint32("sender packet count")
        octetCount = try reader.uint32("sender octet count")
        reports = try RTCPReceptionReport.readBlocks(count: count, reader: &reader)
        profileExtensions = try reader.bytes(reader.remaining, "SR profile extensions")
    }

    func marshal(into writer: inout ByteWriter) throws(RTPParseError) {
        try RTCPReceptionReport.checkWritable(reports, extensions: profileExtensions, packet: "SR")
        RTCPPacket.header(count: UInt8(reports.count), packetType: RTCPPacket.PacketType.senderReport,
                          bodyBytes: 24 + reports.count * RTCPReceptionReport.size + profileExtensions.count, into: &writer)
        writer.uint32(ssrc)
        writer.uint32(ntpTimestamp.seconds)
        writer.uint32(ntpTimestamp.fraction)
        writer.uint32(rtpTimestamp)
        writer.uint32(packetCount)
        writer.uint32(octetCount)
        for report in reports { try report.marshal(into: &writer) }
        writer.append(profileExtensions)
    }
}
