/// VP8 over RTP (RFC 7741 §4, https://www.rfc-editor.org/rfc/rfc7741#section-4): every payload
/// starts with a payload descriptor (the diagram is above `VP8PayloadDescriptor`), then a piece of
/// the frame.
///
/// The frame is cut into equal pieces in order; only the first has S=1, and every piece says
/// partition index 0 (§4.4: a packetizer that does not split at partition boundaries may do so).
/// Each frame gets the next 15-bit PictureID (§4.2, as browsers send it), which the SFU rewrites
/// and receivers use to notice a lost frame. The RTP marker bit goes on the frame's last packet
/// (§4.1); that is the caller's, who writes the RTP headers.
///
/// A frame of a temporal layer (`packetize(_:temporalLayer:maxPayloadSize:)`) has T=1 and L=1 in
/// the X byte, its TL0PICIDX, and the TID|Y|KEYIDX byte (KEYIDX 0, K=0) on every packet (§4.2:
/// the fields are the same on all of a frame's packets). TL0PICIDX goes up by one (mod 256) at
/// each base-layer (TID 0) frame, and an upper-layer frame carries the one of the base frame
/// before it, so a receiver can tell which base frame it rests on. A frame with no layer gets
/// neither, byte for byte as before layers existed.
public struct VP8Packetizer: Packetizer {
    /// The PictureID the next frame gets.
    public private(set) var nextPictureID: UInt16
    /// Whether payloads carry a PictureID at all (one byte of descriptor, or four with it).
    public let includesPictureID: Bool
    /// The TL0PICIDX of the latest base-layer frame; the next one gets this plus one.
    public private(set) var tl0PictureIndex: UInt8

    /// - Parameter firstTL0PictureIndex: the first base-layer frame's TL0PICIDX (§4.2 leaves the
    ///   start to the sender; random, as for the PictureID).
    public init(firstPictureID: UInt16 = .random(in: 0...0x7FFF), includesPictureID: Bool = true,
                firstTL0PictureIndex: UInt8 = .random(in: 0...UInt8.max))
    {
        nextPictureID = firstPictureID & 0x7FFF
        self.includesPictureID = includesPictureID
        tl0PictureIndex = firstTL0PictureIndex &- 1
    }

    public mutating func packetize(_ frame: [UInt8], maxPayloadSize: Int) -> [[UInt8]] {
        packetize(frame, temporalLayer: nil, maxPayloadSize: maxPayloadSize)
    }

    public mutating func packetize(_ frame: [UInt8], temporalLayer: TemporalLayer?, maxPayloadSize: Int) -> [[UInt8]] {
        let pictureID = includesPictureID ? nextPictureID : nil
        let tl0 = temporalLayer.map { $0.id == 0 ? tl0PictureIndex &+ 1 : tl0PictureIndex }
        func descriptor(start: Bool) -> VP8PayloadDescriptor {
            VP8PayloadDescriptor(isPartitionStart: start, pictureID: pictureID, tl0PictureIndex: tl0, temporalLayer: temporalLayer?.id,
                                 layerSync: temporalLayer?.isSync ?? false)
        }
        let headerSize = descriptor(start: true).size
        let room = maxPayloadSize - headerSize
        guard !frame.isEmpty, room > 0 else { return [] }
        nextPictureID = (nextPictureID &+ 1) & 0x7FFF
        if let tl0 { tl0PictureIndex = tl0 }
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
            descriptor(start: start == 0).marshal(into: &payload)
            payload.append(contentsOf: frame[start..<end])
            payloads.append(payload)
            start = end
        }
        return payloads
    }
}
