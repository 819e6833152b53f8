import Foundation

/// A media playlist read back from its text: what an origin needs to answer a player's
/// delivery directives (draft-pantos-hls-rfc8216bis §6.2.5) without knowing who wrote it.
///
/// Reading never fails: text that is not a playlist is one with no segments, no server control
/// and no end, which every directive answers at once. Bounded: a file over `maximumBytes` is read
/// as its first `maximumBytes`.
public struct HLSMediaPlaylist: Sendable {
    public struct Segment: Sendable, Equatable {
        public var sequence: Int
        public var duration: Double
        /// Its lines: the first of its tags through its URI.
        public var lines: Range<Int>
    }

    /// A part's place: its parent's media sequence number and its index there.
    public struct PartPosition: Sendable, Equatable, Comparable {
        public var sequence: Int
        public var index: Int

        public init(sequence: Int, index: Int) {
            self.sequence = sequence
            self.index = index
        }

        public static func < (lhs: PartPosition, rhs: PartPosition) -> Bool {
            (lhs.sequence, lhs.index) < (rhs.sequence, rhs.index)
        }
    }

    public static let maximumBytes = 1 << 20

    public let lines: [Substring]
    public private(set) var version = 1
    public private(set) var targetDuration: Int?
    public private(set) var mediaSequence = 0
    public private(set) var canBlockReload = false
    /// The skip boundary (`CAN-SKIP-UNTIL`), seconds; nil when delta updates are not offered.
    public private(set) var canSkipUntil: Double?
    public private(set) var partTarget: Double?
    public private(set) var ended = false
    /// Segments a delta update left out (`EXT-X-SKIP`, §4.4.5.2): they still count in the numbering.
    public private(set) var skippedSegments = 0
    /// Whole segments, in order.
    public private(set) var segments: [Segment] = []
    /// The last part listed.
    public private(set) var lastPart: PartPosition?
    /// The URI of the part hinted with `EXT-X-PRELOAD-HINT:TYPE=PART`.
    public private(set) var hintedPart: String?
    /// The line of `EXT-X-VERSION`.
    private var versionLine: Int?

    public init(text: String) {
        let bounded = text.utf8.count > HLSMediaPlaylist.maximumBytes ? String(decoding: text.utf8.prefix(HLSMediaPlaylist.maximumBytes), as: UTF8.self) : text
        lines = bounded.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        var segmentStart: Int?
        var pendingDuration: Double?
        var partsOfNext = 0
        for (number, line) in lines.enumerated() {
            if line.hasPrefix("#") {
                let (name, value) = HLSMediaPlaylist.tag(line)
                switch name {
                case "#EXT-X-VERSION":
                    version = Int(value) ?? version
                    versionLine = number
                // Bounded, so the arithmetic on them cannot overflow whatever the file says.
                case "#EXT-X-TARGETDURATION": targetDuration = Int(value).flatMap { (1...86_400).contains($0) ? $0 : nil }
                case "#EXT-X-MEDIA-SEQUENCE": mediaSequence = max(0, min(1 << 40, Int(value) ?? 0))
                case "#EXT-X-ENDLIST": ended = true
                case "#EXT-X-SERVER-CONTROL":
                    let attributes = HLSMediaPlaylist.attributes(value)
                    canBlockReload = attributes["CAN-BLOCK-RELOAD"] == "YES"
                    canSkipUntil = attributes["CAN-SKIP-UNTIL"].flatMap(Double.init).flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
                case "#EXT-X-PART-INF":
                    partTarget = HLSMediaPlaylist.attributes(value)["PART-TARGET"].flatMap(Double.init).flatMap { $0 >= 0.01 && $0 <= 3600 ? $0 : nil }
                case "#EXT-X-SKIP":
                    skippedSegments = max(0, min(1 << 30, HLSMediaPlaylist.attributes(value)["SKIPPED-SEGMENTS"].flatMap { Int($0) } ?? 0))
                case "#EXT-X-PRELOAD-HINT":
                    let attributes = HLSMediaPlaylist.attributes(value)
                    if attributes["TYPE"] == "PART" { hintedPart = attributes["URI"] }
                case "#EXT-X-PART":
                    if segmentStart == nil { segmentStart = number }
                    lastPart = PartPosition(sequence: nextSequence, index: partsOfNext)
                    partsOfNext += 1
                case "#EXTINF":
                    if segmentStart == nil { segmentStart = number }
                    let duration = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first.flatMap { Double($0) }
                    pendingDuration = duration.flatMap { $0.isFinite && $0 >= 0 && $0 <= 86_400 ? $0 : nil } ?? 0
                case "#EXT-X-PROGRAM-DATE-TIME", "#EXT-X-DISCONTINUITY", "#EXT-X-GAP", "#EXT-X-BITRATE":
                    if segmentStart == nil { segmentStart = number }
                default:
                    break
                }
            } else if !line.trimmingCharacters(in: .whitespaces).isEmpty, let duration = pendingDuration {
                segments.append(Segment(sequence: nextSequence, duration: duration, lines: (segmentStart ?? number)..<(number + 1)))
                segmentStart = nil
                pendingDuration = nil
                partsOfNext = 0
            }
        }
    }

    /// The media sequence number the next whole segment will have.
    public var nextSequence: Int { segments.last.map { $0.sequence + 1 } ?? mediaSequence + skippedSegments }

    /// The delta update of this playlist (§6.2.5.1): the segments further from its end than the
    /// skip boundary replaced by `EXT-X-SKIP`, everything else as it is. Nil when it offers no
    /// delta updates or has ended (the player gets the whole playlist, §6.2.5.1), or nothing is
    /// old enough to skip.
    public func deltaUpdate() -> String? {
        guard let boundary = canSkipUntil, !ended, let first = segments.first else { return nil }
        var remaining = segments.reduce(0) { $0 + $1.duration }
        var skipped = 0
        // The last segment is never skipped: a delta keeps at least one.
        for segment in segments.dropLast() {
            remaining -= segment.duration
            // What follows the segment is longer than the boundary: it is further than that from the end.
            guard remaining > boundary else { break }
            skipped += 1
        }
        guard skipped > 0 else { return nil }
        var text = lines[..<first.lines.lowerBound].enumerated().map { number, line in
            number == versionLine ? "#EXT-X-VERSION:\(max(version, 9))" : String(line)
        }
        text.append("#EXT-X-SKIP:SKIPPED-SEGMENTS=\(skipped)")
        text += lines[segments[skipped].lines.lowerBound...].map(String.init)
        return text.joined(separator: "\n")
    }

    /// A tag line's name and value: `#EXT-X-PART:DURATION=0.5` → ("#EXT-X-PART", "DURATION=0.5").
    static func tag(_ line: Substring) -> (Substring, Substring) {
        guard let colon = line.firstIndex(of: ":") else { return (line.trimmingSuffix(), "") }
        return (line[..<colon], line[line.index(after: colon)...].trimmingSuffix())
    }

    /// An attribute list (RFC 8216 §4.2): `NAME=value` pairs, quoted strings unquoted.
    static func attributes(_ text: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var rest = text[...]
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else { break }
            let name = String(rest[..<equals]).trimmingCharacters(in: .whitespaces)
            rest = rest[rest.index(after: equals)...]
            let value: Substring
            if rest.first == "\"" {
                let body = rest.dropFirst()
                let close = body.firstIndex(of: "\"") ?? body.endIndex
                value = body[..<close]
                rest = close < body.endIndex ? body[body.index(after: close)...] : body[close...]
                if rest.first == "," { rest = rest.dropFirst() }
            } else {
                let comma = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<comma]
                rest = comma < rest.endIndex ? rest[rest.index(after: comma)...] : rest[comma...]
            }
            if !name.isEmpty { result[name] = String(value) }
        }
        return result
    }
}

extension Substring {
    fileprivate func trimmingSuffix() -> Substring {
        var end = endIndex
        while end > startIndex, let last = self[..<end].last, last == " " || last == "\r" || last == "\t" { end = index(before: end) }
        return self[..<end]
    }
}
