/// A player's delivery directives on a playlist request (draft-pantos-hls-rfc8216bis §6.2.5):
/// `_HLS_msn` and `_HLS_part` ask the origin to hold the answer until that segment or part is
/// in the playlist (blocking reload, §6.2.5.2); `_HLS_skip=YES` asks for a delta update
/// (§6.2.5.1). `decide` is pure: the origin reads the playlist, asks, and waits or answers.
public struct HLSDeliveryDirectives: Sendable, Equatable {
    public var sequence: Int?
    public var part: Int?
    public var skip: Bool

    /// What the origin does with a request now.
    public enum Decision: Sendable, Equatable {
        /// Answer with the playlist (a delta update if asked for and offered).
        case answer
        /// Hold the request: what it asks for is not in the playlist yet.
        case wait
        /// Answer 400 at once, saying why.
        case refuse(String)
    }

    public struct Malformed: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// True when the request has none: an ordinary playlist request.
    public var isEmpty: Bool { sequence == nil && part == nil && !skip }

    public init(sequence: Int? = nil, part: Int? = nil, skip: Bool = false) {
        self.sequence = sequence
        self.part = part
        self.skip = skip
    }

    /// Reads the `_HLS_` query parameters; other parameters are not the origin's business.
    public init(query: [String: String]) throws(Malformed) {
        func number(_ name: String) throws(Malformed) -> Int? {
            guard let text = query[name] else { return nil }
            // A decimal-integer (RFC 8216 §4.2): digits only, and no more than fit.
            guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text) else {
                throw Malformed(description: "\(name) must be a decimal integer")
            }
            return value
        }
        sequence = try number("_HLS_msn")
        part = try number("_HLS_part")
        if part != nil && sequence == nil { throw Malformed(description: "_HLS_part needs _HLS_msn (§6.2.5.2)") }
        switch query["_HLS_skip"] {
        case nil: skip = false
        // v2 also skips date ranges; Revue's playlists have none, so it is the same as YES.
        case "YES", "v2": skip = true
        case let other?: throw Malformed(description: "_HLS_skip must be YES or v2, not \(other)")
        }
    }

    /// Whether `playlist` answers this request now, later, or never (§6.2.5.2).
    public func decide(_ playlist: HLSMediaPlaylist) -> Decision {
        // A playlist that has ended, or offers no blocking, is answered as it is.
        guard let sequence, playlist.canBlockReload, !playlist.ended else { return .answer }
        let lastWhole = playlist.nextSequence - 1
        if sequence > lastWhole + 2 {
            return .refuse("_HLS_msn=\(sequence) is more than two segments past the last one (\(lastWhole))")
        }
        guard let part else { return lastWhole >= sequence ? .answer : .wait }
        let last = playlist.lastPart ?? HLSMediaPlaylist.PartPosition(sequence: playlist.nextSequence, index: -1)
        // A part index past the segment's last is part 0 of the next (§6.2.5.2): once a later
        // segment is whole, or a later part is listed, the request is answered.
        if lastWhole > sequence || HLSMediaPlaylist.PartPosition(sequence: sequence, index: part) <= last { return .answer }
        if let partTarget = playlist.partTarget, let targetDuration = playlist.targetDuration {
            // Ahead of the last part here, and at most two segments past the last whole one;
            // whatever the file says, the arithmetic saturates rather than overflows.
            let perSegment = max(1, Int((Double(targetDuration) / partTarget).rounded()))
            let (inParts, overflowed) = (sequence - last.sequence).multipliedReportingOverflow(by: perSegment)
            let (ahead, overflowedAgain) = inParts.addingReportingOverflow(part - last.index)
            let limit = HLSLowLatency(partTarget: partTarget).advancePartLimit
            if overflowed || overflowedAgain || ahead > limit {
                return .refuse("_HLS_msn=\(sequence)&_HLS_part=\(part) is \(ahead) parts past the last one, more than \(limit)")
            }
        }
        return .wait
    }
}
