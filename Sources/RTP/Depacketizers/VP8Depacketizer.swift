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

    /// A descriptor to write. Fields the diagram leaves out are absent (nil); `layerSync` is
    /// written only with a temporal layer (the Y bit shares the TID byte).
    public init(isNonReference: Bool = false, isPartitionStart: Bool, partitionIndex: UInt8 = 0, pictureID: UInt16? = nil,
                pictureIDIs15Bit: Bool = true, tl0PictureIndex: UInt8? = nil, temporalLayer: UInt8? = nil, layerSync: Bool = false,
                keyIndex: UInt8? = nil)
    {
        self.isNonReference = isNonReference
        self.isPartitionStart = isPartitionStart
        self.partitionIndex = partitionIndex & 0x0F
        // A 7-bit picture id must fit in 7 bits; larger ones need the 15-bit form.
        let longID = pictureID.map { $0 > 0x7F } ?? false
        self.pictureID = pictureID.map { $0 & 0x7FFF }
        self.pictureIDIs15Bit = pictureID != nil && (pictureIDIs15Bit || longID)
        self.tl0PictureIndex = tl0PictureIndex
        self.temporalLayer = temporalLayer.map { $0 & 0x03 }
        self.layerSync = temporalLayer != nil && layerSync
        self.keyIndex = keyIndex.map { $0 & 0x1F }
        var size = 1
        if pictureID != nil || tl0PictureIndex != nil || temporalLayer != nil || keyIndex != nil {
            size += 1
            if pictureID != nil { size += self.pictureIDIs15Bit ? 2 : 1 }
            if tl0PictureIndex != nil { size += 1 }
            if temporalLayer != nil || keyIndex != nil { size += 1 }
        }
        self.size = size
    }

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

    /// Appends the descriptor's `size` bytes to `buffer`, the inverse of `init(parsing:)`.
    public func marshal(into buffer: inout [UInt8]) {
        let extended = pictureID != nil || tl0PictureIndex != nil || temporalLayer != nil || keyIndex != nil
        buffer.append((extended ? 0x80 : 0) | (isNonReference ? 0x20 : 0) | (isPartitionStart ? 0x10 : 0) | (partitionIndex & 0x0F))
        guard extended else { return }
        buffer.append((pictureID != nil ? 0x80 : 0) | (tl0PictureIndex != nil ? 0x40 : 0) | (temporalLayer != nil ? 0x20 : 0)
            | (keyIndex != nil ? 0x10 : 0))
        if let pictureID {
            if pictureIDIs15Bit {
                buffer.append(0x80 | UInt8(truncatingIfNeeded: pictureID >> 8) & 0x7F)
                buffer.append(UInt8(truncatingIfNeeded: pictureID))
            } else {
                buffer.append(UInt8(truncatingIfNeeded: pictureID) & 0x7F)
            }
        }
        if let tl0PictureIndex { buffer.append(tl0PictureIndex) }
        if temporalLayer != nil || keyIndex != nil {
            buffer.append((temporalLayer ?? 0) << 6 | (layerSync ? 0x20 : 0) | (keyIndex ?? 0) & 0x1F)
        }
    }
}

/// VP8 over RTP (RFC 7741). The frame is the payloads after their descriptors, concatenated. A
/// packet starts a frame when S=1 and the partition index is 0; the frame is a keyframe when the
/// first byte of the VP8 frame header has P=0 (RFC 7741 §4.3, RFC 6386 §9.1). A descriptor with
/// T=1 gives the payload its TID and Y (§4.2); the jitter buffer takes the frame's from its first
/// packet. A descriptor cut short throws, as any malformed one does, so no layer is ever read
/// from bytes that are not there.
public struct VP8Depacketizer: Depacketizer {
    public init() {}

    public mutating func depacketize(_ payload: [UInt8]) throws(RTPParseError) -> DepacketizedPayload {
        let descriptor = try VP8PayloadDescriptor(parsing: payload)
        guard descriptor.size < payload.count else { throw .invalid("VP8 payload with no data after its descriptor") }
        let data = Array(payload[descriptor.size...])
        let starts = descriptor.isPartitionStart && descriptor.partitionIndex == 0
        let keyframe = starts && data[0] & 0x01 == 0
        let layer = descriptor.temporalLayer.map { TemporalLayer(id: $0, isSync: descriptor.layerSync) }
        return DepacketizedPayload(data: data, isFrameStart: starts, isKeyframe: keyframe, temporalLayer: layer)
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
