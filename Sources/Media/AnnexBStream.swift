/// H.264 byte streams (ITU-T H.264 Annex B): NAL units after start codes, as the depacketizer
/// hands whole frames on. End-to-end encryption seals them unit by unit; a per-participant
/// recording takes a track's parameter sets from them.
public enum AnnexBStream {
    /// The NAL units of `stream`, without their start codes or trailing zero bytes (§B.2). Bytes
    /// before the first start code are a unit too, so nothing is dropped.
    public static func units(of stream: [UInt8]) -> [ArraySlice<UInt8>] {
        var units: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        var zeros = 0
        func close(at end: Int) {
            var last = end
            while last > start, stream[last - 1] == 0 { last -= 1 }
            if last > start { units.append(stream[start..<last]) }
        }
        while index < stream.count {
            let byte = stream[index]
            if byte == 1, zeros >= 2 {
                close(at: index - 2)
                start = index + 1
                zeros = 0
            } else {
                zeros = byte == 0 ? zeros + 1 : 0
            }
            index += 1
        }
        close(at: stream.count)
        return units
    }
}
