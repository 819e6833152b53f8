/// The VP8 payload descriptor (RFC 7741 §4.2, https://www.rfc-editor.org/rfc/rfc7741#section-4.2).
///
/// ```
///       0 1 2 3 4 5 6 7
///      +-+-+-+-+-+-+-+-+
///      |X|R|N|S|R| PID | (REQUIRED)
///      +-+-+-+-+-+-+-+-+
/// X:   |I|L|T|K| RSV   | (OPTIONAL)
///      +-+-+-+-+-+-+-+-+
/// I:   |M| PictureID   | (OPTIONAL; M=1 makes PictureID 15 bits, two bytes)
///      +-+-+-+-+-+-+-+-+
/// L:   |   TL0PICIDX   | (OPTIONAL)
///      +-+-+-+-+-+-+-+-+
/// T/K: |TID|Y| KEYIDX  | (OPTIONAL)
///      +-+-+-+-+-+-+-+-+
/// ```
public struct VP8PayloadDescriptor: Sendable, Equatable {
    /// N: the frame can be discarded without affecting others.
    public var isNonReference: Bool
    /// S: this packet starts a VP8 partition.
    public var isPartitionStart: Bool
    public var partitionIndex: UInt8
    /// 7- or 15-bit picture id, if present.
    public var pictureID: UInt16?
    public var pictureIDIs15Bit: Bool
    public var tl0PictureIndex: UInt8?
    public var temporalLayer: UInt8?
    public var layerSync: Bool
    public var keyIndex: UInt8?
    /// Bytes the descriptor takes.
    public var size: Int

    public init(parsing payload: [UInt8]) throws(RTPParseError) {
        var reader = ByteReader(payload)
        let first = try reader.uint8("VP8 descriptor")
        isNonReference = first & 0x20 != 0
        isPartitionStart = first & 0x10 != 0
        partitionIndex = first & 0x0F
        guard partitionIndex <= 8 else { throw .invalid("VP8 partition index \(partitionIndex) (at most 8)") }
        pictureID = nil
        pictureIDIs15Bit = false
        tl0PictureIndex = nil
        temporalLayer = nil
        layerSync = false
        keyIndex = nil
        if first & 0x80 != 0 {
            let extended = try reader.uint8("VP8 extension byte")
            if extended & 0x80 != 0 {
                let high = try reader.uint8("VP8 picture id")
                if high & 0x80 != 0 {
                    let low = try reader.uint8("VP8 picture id")
                    pictureID = UInt16(high & 0x7F) << 8 | UInt16(low)
                    pictureIDIs15Bit = true
                } else {
                    pictureID = UInt16(high)
                }
            }
            if extended & 0x40 != 0 {
                tl0PictureIndex = try reader.uint8("VP8 TL0PICIDX")
            }
            if extended & 0x30 != 0 {
                let layer = try reader.uint8("VP8 TID/KEYIDX")
                if extended & 0x20 != 0 {
                    temporalLayer = layer >> 6
                    layerSync = layer & 0x20 != 0
                }
                if extended & 0x10 != 0 { keyIndex = layer & 0x1F }
            }
        }
        size = reader.offset
    }
}

/// VP8 over RTP (RFC 7741). The frame is the payloads after their descriptors, concatenated. A
/// packet starts a frame when S=1 and the partition index is 0; the frame is a keyframe when the
/// first byte of the VP8 frame header has P=0 (RFC 7741 §4.3, RFC 6386 §9.1).
public struct VP8Depacketizer: Depacketizer {
    public init() {}

    public mutating func depacketize(_ payload: [UInt8]) throws(RTPParseError) -> DepacketizedPayload {
        let descriptor = try VP8PayloadDescriptor(parsing: payload)
        guard descriptor.size < payload.count else { throw .invalid("VP8 payload with no data after its descriptor") }
        let data = Array(payload[descriptor.size...])
        let starts = descriptor.isPartitionStart && descriptor.partitionIndex == 0
        let keyframe = starts && data[0] & 0x01 == 0
        return DepacketizedPayload(data: data, isFrameStart: starts, isKeyframe: keyframe)
    }

    /// The size a VP8 keyframe declares (RFC 6386 §9.1): after the 3-byte frame tag, the start
    /// code 9d 01 2a and two 16-bit little-endian fields whose low 14 bits are width and height.
    public static func keyframeSize(_ frame: [UInt8]) -> (width: Int, height: Int)? {
        guard frame.count >= 10, frame[0] & 0x01 == 0, frame[3] == 0x9D, frame[4] == 0x01, frame[5] == 0x2A else {
            return nil
        }
        let width = Int(UInt16(frame[6]) | UInt16(frame[7]) << 8) & 0x3FFF
        let height = Int(UInt16(frame[8]) | UInt16(frame[9]) << 8) & 0x3FFF
        return (width, height)
    }
}
