import Media
/// Finds where a subscriber may start decoding: the first packet of a keyframe.
///
/// - VP8 (RFC 7741 §4.2, §4.3): the payload descriptor has S=1 and partition index 0, and the
///   first byte of the VP8 payload header has P=0 (RFC 6386 §9.1: inverse keyframe flag).
///   ```
///        0 1 2 3 4 5 6 7
///       |X|R|N|S|R| PID |   then, if X: |I|L|T|K| RSV |, if I: |M| PictureID (7 or 15) |,
///                             if L: TL0PICIDX, if T or K: |TID|Y| KEYIDX |
///   ```
/// - H.264 (RFC 6184 §5.6–5.8): a single NAL unit of type 5 (IDR) or 7 (SPS); a STAP-A (24)
///   holding one; an FU-A (28) with S=1 whose original type is 5 or 7. An SPS counts because
///   encoders send SPS/PPS just before the IDR, and a decoder starting at the IDR needs them.
/// - Opus and other codecs: every packet.
enum KeyframeDetector {
    static func isKeyframeStart(codec: TrackCodec?, packet: UnsafeBufferPointer<UInt8>, payloadStart: Int, payloadEnd: Int) -> Bool {
        switch codec {
        case .vp8?:
            return VP8Descriptor(packet, from: payloadStart, to: payloadEnd)?.isKeyframeStart ?? false
        case .h264?:
            return h264IsKeyframeStart(packet, from: payloadStart, to: payloadEnd)
        case .opus?, nil:
            return true
        }
    }

    static func h264IsKeyframeStart(_ packet: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        guard start < end else { return false }
        let type = packet[start] & 0x1F
        switch type {
        case 5, 7:
            return true
        case 24: // STAP-A: size (16) | NAL unit, repeated
            var offset = start + 1
            while offset + 2 < end {
                let size = Int(packet[offset]) << 8 | Int(packet[offset + 1])
                guard size > 0, offset + 2 + size <= end else { return false }
                let inner = packet[offset + 2] & 0x1F
                if inner == 5 || inner == 7 { return true }
                offset += 2 + size
            }
            return false
        case 28: // FU-A: FU indicator, FU header |S|E|R|Type|
            guard start + 1 < end else { return false }
            let header = packet[start + 1]
            let inner = header & 0x1F
            return header & 0x80 != 0 && (inner == 5 || inner == 7)
        default:
            return false
        }
    }
}

/// Where the rewritable fields of a VP8 payload descriptor are (RFC 7741 §4.2), as offsets
/// into the packet.
struct VP8Descriptor {
    /// The picture ID's first byte, when present.
    var pictureIDOffset: Int?
    /// M=1: a 15-bit picture ID in two bytes.
    var pictureIDIs15Bit: Bool
    var tl0PictureIndexOffset: Int?
    var isKeyframeStart: Bool

    init?(_ packet: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        guard start < end else { return nil }
        let first = packet[start]
        var offset = start + 1
        pictureIDOffset = nil
        pictureIDIs15Bit = false
        tl0PictureIndexOffset = nil
        if first & 0x80 != 0 {
            guard offset < end else { return nil }
            let extended = packet[offset]
            offset += 1
            if extended & 0x80 != 0 {
                guard offset < end else { return nil }
                pictureIDOffset = offset
                pictureIDIs15Bit = packet[offset] & 0x80 != 0
                offset += pictureIDIs15Bit ? 2 : 1
            }
            if extended & 0x40 != 0 {
                tl0PictureIndexOffset = offset
                offset += 1
            }
            if extended & 0x30 != 0 { offset += 1 }
        }
        guard offset < end else { return nil }
        let partitionStart = first & 0x10 != 0 && first & 0x0F == 0
        isKeyframeStart = partitionStart && packet[offset] & 0x01 == 0
    }
}
