import Foundation

/// One HLS media segment.
public struct HLSSegment: Sendable, Equatable {
    /// Its media sequence number.
    public var sequence: Int
    public var uri: String
    /// Seconds.
    public var duration: Double
    /// The wall-clock time of its first sample (`EXT-X-PROGRAM-DATE-TIME`).
    public var programDateTime: Date

    public init(sequence: Int, uri: String, duration: Double, programDateTime: Date) {
        self.sequence = sequence
        self.uri = uri
        self.duration = duration
        self.programDateTime = programDateTime
    }
}
