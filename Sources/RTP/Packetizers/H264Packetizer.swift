/// H.264 over RTP in packetization mode 1 (RFC 6184 §6.3, https://www.rfc-editor.org/rfc/rfc6184#section-6.3):
/// one access unit in (Annex B: NAL units behind 00 00 01 or 00 00 00 01 start codes), payloads out.
///
/// - A NAL unit that fits a payload alone, with no neighbour to share it, goes as a single NAL
///   unit packet (§5.6): the payload is the NAL unit itself.
/// - Neighbouring small NAL units are aggregated into a STAP-A (§5.7.1), as browsers send the
///   SPS and PPS that x264 puts in front of every IDR picture: the STAP-A header (type 24, F the
///   OR of the units' F bits, NRI their largest, §5.7), then for each unit its 16-bit size and
///   its bytes.
///   ```
///    0                   1                   2                   3
///    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
///   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///   |STAP-A NAL HDR |         NALU 1 Size           | NALU 1 HDR    |
///   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///   |                         NALU 1 Data                           |
///   :                                                               :
///   +               +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///   |               | NALU 2 Size                   | NALU 2 HDR    |
///   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///   ```
/// - A NAL unit larger than a payload is cut into FU-A fragments (§5.8): the FU indicator (the
///   unit's F and NRI, type 28), the FU header (S on the first, E on the last, the unit's type),
///   then a piece of the unit after its header byte. The pieces are of equal size (±1 byte),
///   so no tiny last packet trails a frame.
///   ```
///   +---------------+---------------+
///   |0|1|2|3|4|5|6|7|0|1|2|3|4|5|6|7|
///   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///   |F|NRI|  Type   |S|E|R|  Type   |
///   +---------------+---------------+
///   ```
///
/// Parameter sets go in band (x264 repeats them before each IDR), so a receiver that joins at a
/// keyframe can decode it without `sprop-parameter-sets`. The RTP marker bit goes on an access
/// unit's last packet (§5.1); that is the caller's, who writes the RTP headers.
public struct H264Packetizer: Packetizer {
    public init() {}

    public mutating func packetize(_ frame: [UInt8], maxPayloadSize: Int) -> [[UInt8]] {
        // An FU-A needs its two header bytes and at least one byte of the unit.
        guard maxPayloadSize >= 3 else { return [] }
        let units = H264Depacketizer.nalUnitRanges(frame)
        var payloads: [[UInt8]] = []
        var pending: [Range<Int>] = []
        // The size of the STAP-A that the pending units would make.
        var pendingSize = 1
        for unit in units {
            if unit.count > maxPayloadSize {
                H264Packetizer.flush(&pending, of: frame, into: &payloads)
                pendingSize = 1
                H264Packetizer.fragment(frame[unit], maxPayloadSize: maxPayloadSize, into: &payloads)
                continue
            }
            // A STAP-A carries sizes in 16 bits; a unit that would not fit one with its
            // neighbours starts a new group (it may still go alone as a single NAL unit).
            if !pending.isEmpty && pendingSize + 2 + unit.count > maxPayloadSize {
                H264Packetizer.flush(&pending, of: frame, into: &payloads)
                pendingSize = 1
            }
            pending.append(unit)
            pendingSize += 2 + unit.count
        }
        H264Packetizer.flush(&pending, of: frame, into: &payloads)
        return payloads
    }

    /// The pending units as one single NAL unit packet (§5.6) or one STAP-A (§5.7.1).
    private static func flush(_ pending: inout [Range<Int>], of frame: [UInt8], into payloads: inout [[UInt8]]) {
        defer { pending.removeAll(keepingCapacity: true) }
        guard let first = pending.first else { return }
        if pending.count == 1 {
            payloads.append(Array(frame[first]))
            return
        }
        var forbidden: UInt8 = 0
        var importance: UInt8 = 0
        var payload: [UInt8] = [0]
        payload.reserveCapacity(1 + pending.reduce(0) { $0 + 2 + $1.count })
        for unit in pending {
            let header = frame[unit.lowerBound]
            forbidden |= header & 0x80
            importance = max(importance, header & 0x60)
            payload.append(UInt8(unit.count >> 8))
            payload.append(UInt8(truncatingIfNeeded: unit.count))
            payload.append(contentsOf: frame[unit])
        }
        payload[0] = forbidden | importance | H264Depacketizer.NALType.stapA
        payloads.append(payload)
    }

    /// One NAL unit as FU-A fragments (§5.8), of equal size.
    private static func fragment(_ unit: ArraySlice<UInt8>, maxPayloadSize: Int, into payloads: inout [[UInt8]]) {
        guard let header = unit.first else { return }
        let indicator = header & 0xE0 | H264Depacketizer.NALType.fuA
        let type = header & 0x1F
        let body = unit.dropFirst()
        let room = maxPayloadSize - 2
        let count = (body.count + room - 1) / room
        let piece = body.count / count, longer = body.count % count
        var start = body.startIndex
        for number in 0..<count {
            let end = start + piece + (number < longer ? 1 : 0)
            var payload: [UInt8] = []
            payload.reserveCapacity(2 + end - start)
            payload.append(indicator)
            payload.append((number == 0 ? 0x80 : 0) | (number == count - 1 ? 0x40 : 0) | type)
            payload.append(contentsOf: body[start..<end])
            payloads.append(payload)
            start = end
        }
    }
}
