import MediaSource
import RTP

extension Feedback {
    /// The RTCP packet that carries this feedback, sent as `senderSSRC` (RFC 3550 §6.4.2: a
    /// receiver reports with an SSRC of its own). A FIR goes as a PLI: the server's SFU treats
    /// both as a keyframe request (RFC 4585 §6.3.1, RFC 5104 §4.3.1). At most 31 report blocks
    /// fit one receiver report (RFC 3550 §6.4.2's 5-bit count).
    public func rtcpPacket(senderSSRC: UInt32) -> RTCPPacket {
        switch self {
        case .pictureLossIndication(let ssrc), .fullIntraRequest(let ssrc):
            .pictureLossIndication(RTCPPictureLossIndication(senderSSRC: senderSSRC, mediaSSRC: ssrc))
        case .nack(let ssrc, let sequences):
            .nack(RTCPNack(senderSSRC: senderSSRC, mediaSSRC: ssrc, lost: sequences))
        case .receiverReport(let reports):
            .receiverReport(RTCPReceiverReport(ssrc: senderSSRC, reports: Array(reports.prefix(31))))
        }
    }
}
