/// Picture Loss Indication (RFC 4585 §6.3.1): the receiver lost part of a picture and asks the
/// sender for a keyframe. It has no feedback control information.
///
/// ```
/// |V=2|P|  FMT=1  |   PT=PSFB=206 |          length=2             |
/// |                  SSRC of packet sender                        |
/// |                  SSRC of media source                         |
/// ```
public struct RTCPPictureLossIndication: Sendable, Equatable {
    public static let format: UInt8 = 1

    public var senderSSRC: UInt32
    public var mediaSSRC: UInt32

    public init(senderSSRC: UInt32, mediaSSRC: UInt32) {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
    }

    init(reader: inout ByteReader) throws(RTPParseError) {
        senderSSRC = try reader.uint32("PLI sender SSRC")
        mediaSSRC = try reader.uint32("PLI media SSRC")
    }

    func marshal(into writer: inout ByteWriter) {
        RTCPPacket.header(count: RTCPPictureLossIndication.format, packetType: RTCPPacket.PacketType.payloadFeedback,
                          bodyBytes: 8, into: &writer)
        writer.uint32(senderSSRC)
        writer.uint32(mediaSSRC)
    }
}
