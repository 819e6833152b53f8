/// VP8 over RTP (RFC 7741 §4, https://www.rfc-editor.org/rfc/rfc7741#section-4): every payload
/// starts with a payload descriptor (the diagram is above `VP8PayloadDescriptor`), then a piece of
/// the frame.
///
/// The frame is cut into equal pieces in order; only the first has S=1, and every piece says
/// partition index 0 (§4.4: a packetizer that does not split at partition boundaries may do so).
/// Each frame gets the next 15-bit PictureID (§4.2, as browsers send it), which the SFU rewrites
/// and receivers use to notice a lost frame. The RTP marker bit goes on the frame's last packet
/// (§4.1); that is the caller's, who writes the RTP headers.
public struct VP8Packetizer: Packetizer {
    /// The PictureID the next frame gets.
    public private(set) var nextPictureID: UInt16
    /// Whether payloads carry a PictureID at all (one byte of descriptor, or four with it).
    public let includesPictureID: Bool

    public init(firstPictureID: UInt16 = .random(in: 0...0x7FFF), includesPictureID: Bool = true) {
        nextPictureID = firstPictureID & 0x7FFF
        self.includesPictureID = includesPictureID
    }

    public mutating func packetize(_ frame: [UInt8], maxPayloadSize: Int) -> [[UInt8]] {
        let pictureID = includesPictureID ? nextPictureID : nil
        let headerSize = VP8PayloadDescriptor(isPartitionStart: true, pictureID: pictureID).size
        let room = maxPayloadSize - headerSize
        guard !frame.isEmpty, room > 0 else { return [] }
        nextPictureID = (nextPictureID &+ 1) & 0x7FFF
        // Equal pieces rather than full ones and a short tail: the same packet count, and no tiny
        // last packet for a receiver to wait on.
        let count = (frame.count + room - 1) / room
        let piece = frame.count / count, longer = frame.count % count
        var payloads: [[UInt8]] = []
        payloads.reserveCapacity(count)
        var start = 0
        while start < frame.count {
            let end = start + piece + (payloads.count < longer ? 1 : 0)
            var payload: [UInt8] = []
            payload.reserveCapacity(headerSize + end - start)
            VP8PayloadDescriptor(isPartitionStart: start == 0, pictureID: pictureID).marshal(into: &payload)
            payload.append(contentsOf: frame[start..<end])
            payloads.append(payload)
            start = end
        }
        return payloads
    }
}
