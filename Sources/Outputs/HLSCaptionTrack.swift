import Media

/// The captions of an HLS stream as WebVTT segments (RFC 8216 §3.5): one per media segment,
/// covering the same media time, so a player shows each caption over the picture it belongs to.
/// A pure value: the output says which span to write and when.
///
/// A caption arrives a second or so after the speech ends (the engine waits for the end of the
/// utterance), so the output writes a span's captions some segments later (`HLSOutput`'s lag).
/// A caption that comes later still, after every span it falls in was written, goes into the
/// next span written, from that span's start: shown late rather than lost. One that comes more
/// than `lateLimit` seconds late is dropped (by then it would caption something else).
struct HLSCaptionTrack {
    /// Cue times in a segment are media seconds: `X-TIMESTAMP-MAP` (RFC 8216 §3.5) ties local
    /// time 10 s to media time 10 s (a 90 kHz MPEG-TS time that is not 0, which players treat as
    /// "no map").
    static let timestampMap = "X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:10.000"
    static let lateLimit = 30.0

    /// Kept at most; the oldest go first, so a flood never grows memory.
    let capacity: Int
    private var pending: [(number: Int, caption: Caption, written: Bool)] = []
    private var nextNumber = 1
    /// Where the spans written so far end.
    private(set) var writtenEnd: Double = 0
    /// Captions dropped: for a full queue, or too late.
    private(set) var dropped = 0

    init(capacity: Int = 500) {
        self.capacity = capacity
    }

    mutating func add(_ caption: Caption) {
        guard caption.start.isFinite, caption.end.isFinite, caption.end >= caption.start,
              caption.end > writtenEnd - Self.lateLimit
        else {
            dropped += 1
            return
        }
        let index = pending.firstIndex { $0.caption.start > caption.start } ?? pending.endIndex
        pending.insert((nextNumber, caption, false), at: index)
        nextNumber += 1
        if pending.count > capacity {
            pending.removeFirst(pending.count - capacity)
            dropped += 1
        }
    }

    /// The WebVTT segment for media time [start, end): the captions that overlap it, and those
    /// that came too late for the spans they fall in. A caption over several spans is in each,
    /// with the same identifier, so a player shows it once.
    mutating func segment(start: Double, end: Double) -> String {
        var text = WebVTT.signature + "\n" + Self.timestampMap + "\n\n"
        for index in pending.indices {
            let (number, caption, written) = pending[index]
            if caption.end > start && caption.start < end {
                text += WebVTT.cue(identifier: "c\(number)", start: caption.start, end: caption.end, voice: caption.name, text: caption.text)
                pending[index].written = true
            } else if caption.end <= start && !written {
                let shown = max(1, caption.end - caption.start)
                text += WebVTT.cue(identifier: "c\(number)", start: start, end: start + shown, voice: caption.name, text: caption.text)
                pending[index].written = true
            }
        }
        writtenEnd = max(writtenEnd, end)
        pending.removeAll { $0.written && $0.caption.end <= end }
        return text
    }

    /// Captions waiting for a span.
    var count: Int { pending.count }
}
