/// One partial segment of low-latency HLS (draft-pantos-hls-rfc8216bis §3.2): a piece of the
/// segment being made, published before the segment is whole. Its parent segment is made of
/// exactly its parts' bytes, one after another.
public struct HLSPart: Sendable, Equatable {
    /// The media sequence number of its parent segment.
    public var sequence: Int
    /// Its place in the parent segment, from 0 (the Part Index).
    public var index: Int
    public var uri: String
    /// Seconds.
    public var duration: Double
    /// It starts with a keyframe: a player can start decoding at it (`INDEPENDENT=YES`).
    public var independent: Bool

    public init(sequence: Int, index: Int, uri: String, duration: Double, independent: Bool) {
        self.sequence = sequence
        self.index = index
        self.uri = uri
        self.duration = duration
        self.independent = independent
    }

    /// Whether a file name is a part's (`seg_NNNNN_partK.m4s`).
    public static func isPartFile(_ name: String) -> Bool {
        name.hasPrefix("seg_") && name.hasSuffix(".m4s") && name.contains("_part")
    }

    /// The file name of part `index` of segment `sequence`.
    public static func uri(sequence: Int, index: Int) -> String {
        "seg_" + String(format: "%05d", sequence) + "_part\(index).m4s"
    }
}
