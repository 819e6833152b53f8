import Foundation

extension HLSPlaylist {
    /// The part of a live playlist that is still being made: the segment in progress.
    public struct Edge: Sendable, Equatable {
        /// The wall-clock time of its first sample.
        public var programDateTime: Date
        /// Its parts so far (of the segment after the last whole one).
        public var parts: [HLSPart]
        /// The part being made now, hinted to players (`EXT-X-PRELOAD-HINT`, §4.4.5.3).
        public var nextPartURI: String

        public init(programDateTime: Date, parts: [HLSPart], nextPartURI: String) {
            self.programDateTime = programDateTime
            self.parts = parts
            self.nextPartURI = nextPartURI
        }
    }

    /// The live playlist with partial segments (low-latency HLS, draft-pantos-hls-rfc8216bis):
    /// the last `window` whole segments, each with its parts while it is within three target
    /// durations of the end (§6.2.2), then the parts of the segment in progress and a hint for
    /// the next. `EXT-X-SERVER-CONTROL` offers blocking reloads and delta updates, both answered
    /// by the origin (`HLSDeliveryDirectives`); a player that knows none of this plays it as an
    /// ordinary live playlist.
    ///
    /// `parts` holds the parts of whole segments (older ones are skipped); `edge` the segment
    /// in progress; `renditionReports` the other renditions of the stream, after the hint
    /// (§4.4.5.4).
    public static func lowLatencyLive(segments: [HLSSegment], parts: [HLSPart], edge: Edge, window: Int, targetDuration: Int,
                                      lowLatency: HLSLowLatency, renditionReports: [HLSRenditionReport] = []) -> String
    {
        let listed = Array(segments.suffix(window))
        var lines = [
            "#EXTM3U",
            // The tags of low-latency HLS need no newer version; a delta update, which has
            // EXT-X-SKIP, says 9 (HLSDeltaUpdate).
            "#EXT-X-VERSION:7",
            "#EXT-X-TARGETDURATION:\(targetDuration)",
            "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=" + decimal(lowLatency.partHoldBack)
                + ",CAN-SKIP-UNTIL=" + decimal(HLSLowLatency.skipBoundary(targetDuration: targetDuration)),
            "#EXT-X-PART-INF:PART-TARGET=" + decimal(lowLatency.declaredPartTarget),
            "#EXT-X-MEDIA-SEQUENCE:\(listed.first?.sequence ?? (segments.last.map { $0.sequence + 1 } ?? 0))",
            "#EXT-X-INDEPENDENT-SEGMENTS",
            "#EXT-X-MAP:URI=\"\(mapURI)\"",
        ]
        // Each listed segment's distance from the end, to keep the parts of the recent ones.
        var distance = edge.parts.reduce(0) { $0 + $1.duration }
        var recent: Set<Int> = []
        for segment in listed.reversed() {
            if distance < HLSLowLatency.partWindow(targetDuration: targetDuration) { recent.insert(segment.sequence) }
            distance += segment.duration
        }
        let partsBySegment = Dictionary(grouping: parts.filter { recent.contains($0.sequence) }, by: \.sequence)
        for segment in listed {
            lines.append("#EXT-X-PROGRAM-DATE-TIME:\(format(segment.programDateTime))")
            for part in partsBySegment[segment.sequence] ?? [] { lines.append(partLine(part)) }
            lines.append(String(format: "#EXTINF:%.3f,", segment.duration))
            lines.append(segment.uri)
        }
        if !edge.parts.isEmpty {
            lines.append("#EXT-X-PROGRAM-DATE-TIME:\(format(edge.programDateTime))")
            for part in edge.parts { lines.append(partLine(part)) }
        }
        lines.append("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"\(edge.nextPartURI)\"")
        lines += renditionReports.map(\.tag)
        return lines.joined(separator: "\n") + "\n"
    }

    static func partLine(_ part: HLSPart) -> String {
        "#EXT-X-PART:DURATION=" + decimal(part.duration) + ",URI=\"\(part.uri)\"" + (part.independent ? ",INDEPENDENT=YES" : "")
    }

    /// A decimal-floating-point attribute (RFC 8216 §4.2), to the millisecond.
    static func decimal(_ value: Double) -> String {
        String(format: "%.3f", value)
    }
}
