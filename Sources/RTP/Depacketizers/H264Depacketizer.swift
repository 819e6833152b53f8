/// H.264 over RTP (RFC 6184, https://www.rfc-editor.org/rfc/rfc6184), packetization modes 0 and 1:
/// single NAL unit packets, STAP-A aggregates and FU-A fragments. Output is Annex B: each NAL
/// unit is preceded by the start code 00 00 00 01.
///
/// NAL unit header (§1.3):
/// ```
/// +---------------+
/// |0|1|2|3|4|5|6|7|
/// +-+-+-+-+-+-+-+-+
/// |F|NRI|  Type   |
/// +---------------+
/// ```
/// STAP-A (§5.7.1): the header (type 24), then repeated `size (16 bits) | NAL unit`.
/// FU-A (§5.8): the FU indicator (type 28), then the FU header `S|E|R|Type`, then a fragment.
///
/// It keeps the latest SPS and PPS. A keyframe that arrives without them (they came in an
/// earlier frame) gets them put in front, so a decoder that starts at that keyframe can decode it.
public struct H264Depacketizer: Depacketizer {
    public enum NALType {
        public static let nonIDRSlice: UInt8 = 1
        public static let idrSlice: UInt8 = 5
        public static let sei: UInt8 = 6
        public static let sps: UInt8 = 7
        public static let pps: UInt8 = 8
        public static let accessUnitDelimiter: UInt8 = 9
        public static let stapA: UInt8 = 24
        public static let stapB: UInt8 = 25
        public static let mtap16: UInt8 = 26
        public static let mtap24: UInt8 = 27
        public static let fuA: UInt8 = 28
        public static let fuB: UInt8 = 29
    }

    static let startCode: [UInt8] = [0, 0, 0, 1]

    /// The latest sequence and picture parameter sets seen, whole NAL units without start codes.
    public private(set) var sequenceParameterSet: [UInt8]?
    public private(set) var pictureParameterSet: [UInt8]?

    public init() {}

    public mutating func depacketize(_ payload: [UInt8]) throws(RTPParseError) -> DepacketizedPayload {
        guard let header = payload.first else { throw .truncated("H.264 NAL header", needed: 1, available: 0) }
        guard header & 0x80 == 0 else { throw .invalid("H.264 forbidden_zero_bit is set") }
        let type = header & 0x1F
        switch type {
        case 1...23:
            return DepacketizedPayload(data: H264Depacketizer.startCode + payload,
                                       isFrameStart: H264Depacketizer.beginsAccessUnit(payload),
                                       isKeyframe: type == NALType.idrSlice)
        case NALType.stapA:
            var data: [UInt8] = []
            var reader = ByteReader(payload, offset: 1)
            var first = true
            var starts = false
            var keyframe = false
            while !reader.isAtEnd {
                let size = Int(try reader.uint16("STAP-A NAL size"))
                guard size > 0 else { throw .invalid("STAP-A NAL unit of size 0") }
                let unit = try reader.bytes(size, "STAP-A NAL unit")
                guard unit[0] & 0x80 == 0 else { throw .invalid("H.264 forbidden_zero_bit is set in STAP-A") }
                let unitType = unit[0] & 0x1F
                guard (1...23).contains(unitType) else { throw .invalid("STAP-A holds NAL type \(unitType)") }
                if first {
                    starts = H264Depacketizer.beginsAccessUnit(unit)
                    first = false
                }
                if unitType == NALType.idrSlice { keyframe = true }
                data += H264Depacketizer.startCode
                data += unit
            }
            guard !first else { throw .invalid("STAP-A with no NAL units") }
            return DepacketizedPayload(data: data, isFrameStart: starts, isKeyframe: keyframe)
        case NALType.fuA:
            guard payload.count >= 3 else {
                throw .truncated("FU-A header and fragment", needed: 3, available: payload.count)
            }
            let fuHeader = payload[1]
            let isStart = fuHeader & 0x80 != 0
            let isEnd = fuHeader & 0x40 != 0
            guard !(isStart && isEnd) else { throw .invalid("FU-A with both start and end bits") }
            let unitType = fuHeader & 0x1F
            guard (1...23).contains(unitType) else { throw .invalid("FU-A carries NAL type \(unitType)") }
            let fragment = payload[2...]
            if isStart {
                let reconstructed = (header & 0xE0) | unitType
                var data = H264Depacketizer.startCode
                data.reserveCapacity(5 + fragment.count)
                data.append(reconstructed)
                data += fragment
                return DepacketizedPayload(data: data,
                                           isFrameStart: H264Depacketizer.beginsAccessUnit([reconstructed] + fragment.prefix(1)),
                                           isKeyframe: unitType == NALType.idrSlice)
            }
            return DepacketizedPayload(data: Array(fragment), isFrameStart: false, isKeyframe: unitType == NALType.idrSlice)
        case NALType.stapB, NALType.mtap16, NALType.mtap24, NALType.fuB:
            throw .unsupported("H.264 NAL type \(type) needs packetization-mode 2")
        default:
            throw .invalid("H.264 NAL type \(type) is reserved")
        }
    }

    /// Whether a NAL unit begins an access unit (ITU-T H.264 §7.4.1.2.3): a parameter set, SEI or
    /// delimiter, or a slice whose first_mb_in_slice is 0 (its Exp-Golomb code is the single bit
    /// 1, so the first byte after the header has its high bit set).
    static func beginsAccessUnit(_ unit: [UInt8]) -> Bool {
        guard let header = unit.first else { return false }
        switch header & 0x1F {
        case NALType.sei, NALType.sps, NALType.pps, NALType.accessUnitDelimiter: return true
        case NALType.nonIDRSlice, NALType.idrSlice: return unit.count > 1 && unit[1] & 0x80 != 0
        default: return false
        }
    }

    public mutating func completeFrame(_ data: [UInt8], isKeyframe: Bool) -> [UInt8] {
        var hasSPS = false
        var hasPPS = false
        for range in H264Depacketizer.nalUnitRanges(data) {
            guard let header = data[range].first else { continue }
            switch header & 0x1F {
            case NALType.sps:
                sequenceParameterSet = Array(data[range])
                hasSPS = true
            case NALType.pps:
                pictureParameterSet = Array(data[range])
                hasPPS = true
            default: break
            }
        }
        guard isKeyframe, !(hasSPS && hasPPS), let sps = sequenceParameterSet, let pps = pictureParameterSet else {
            return data
        }
        var fixed: [UInt8] = []
        fixed.reserveCapacity(data.count + sps.count + pps.count + 8)
        if !hasSPS { fixed += H264Depacketizer.startCode + sps }
        if !hasPPS { fixed += H264Depacketizer.startCode + pps }
        return fixed + data
    }

    /// The ranges of the NAL units in Annex B bytes (start codes excluded).
    public static func nalUnitRanges(_ data: [UInt8]) -> [Range<Int>] {
        var starts: [(codeStart: Int, unitStart: Int)] = []
        var index = 0
        while index + 2 < data.count {
            if data[index] == 0 && data[index + 1] == 0 && data[index + 2] == 1 {
                let codeStart = index > 0 && data[index - 1] == 0 ? index - 1 : index
                starts.append((codeStart, index + 3))
                index += 3
            } else {
                index += 1
            }
        }
        var ranges: [Range<Int>] = []
        for (position, start) in starts.enumerated() {
            let end = position + 1 < starts.count ? starts[position + 1].codeStart : data.count
            if start.unitStart < end { ranges.append(start.unitStart..<end) }
        }
        return ranges
    }
}
