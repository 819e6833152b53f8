import Media
import TestSupport
import Testing

@testable import Outputs

@Suite struct HLSCaptionTrackTests {
    static func caption(_ text: String, _ start: Double, _ end: Double, name: String = "Alice") -> Caption {
        Caption(participantID: name.lowercased(), name: name, text: text, start: start, end: end)
    }

    /// The cues of a segment: identifier, timing line, text.
    static func cues(_ segment: String) -> [[String]] {
        segment.components(separatedBy: "\n\n").dropFirst().map { $0.split(separator: "\n").map(String.init) }.filter { !$0.isEmpty }
    }

    @Test func aCaptionIsInEverySegmentItOverlapsWithOneIdentifier() {
        var track = HLSCaptionTrack()
        track.add(Self.caption("hello there", 1.5, 3.2))
        track.add(Self.caption("later", 4.1, 4.9, name: "Bob"))
        let first = track.segment(start: 0, end: 2)
        #expect(first.hasPrefix("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:10.000\n\n"))
        #expect(Self.cues(first) == [["c1", "00:00:01.500 --> 00:00:03.200", "<v Alice>hello there</v>"]])
        #expect(Self.cues(track.segment(start: 2, end: 4)) == [["c1", "00:00:01.500 --> 00:00:03.200", "<v Alice>hello there</v>"]])
        #expect(Self.cues(track.segment(start: 4, end: 6)) == [["c2", "00:00:04.100 --> 00:00:04.900", "<v Bob>later</v>"]])
        #expect(Self.cues(track.segment(start: 6, end: 8)).isEmpty)
        #expect(track.count == 0)
    }

    @Test func aCaptionTooLateForItsSegmentsIsShownFromTheNextOne() {
        var track = HLSCaptionTrack()
        _ = track.segment(start: 0, end: 2)
        _ = track.segment(start: 2, end: 4)
        // Said at 0.5–1.5 s, heard after both spans were written: shown at 4 s for its second.
        track.add(Self.caption("late & <loud>", 0.5, 1.5))
        #expect(Self.cues(track.segment(start: 4, end: 6)) == [["c1", "00:00:04.000 --> 00:00:05.000", "<v Alice>late &amp; &lt;loud&gt;</v>"]])
        #expect(Self.cues(track.segment(start: 6, end: 8)).isEmpty)
        // Half a minute late is dropped: it would caption something else by now.
        for start in stride(from: 8.0, to: 60, by: 2) { _ = track.segment(start: start, end: start + 2) }
        track.add(Self.caption("too late", 10, 12))
        #expect(track.dropped == 1)
        #expect(track.count == 0)
    }

    @Test func aFloodKeepsTheNewest() {
        var track = HLSCaptionTrack(capacity: 10)
        for index in 0..<100 { track.add(Self.caption("line \(index)", 2 + Double(index) * 0.01, 3)) }
        #expect(track.count == 10)
        #expect(track.dropped == 90)
        let cues = Self.cues(track.segment(start: 2, end: 4))
        #expect(cues.count == 10)
        #expect(cues.first?.last == "<v Alice>line 90</v>")
    }

    /// A caption that ends in a thousand years (a time from outside, through a line's end) is
    /// written with the latest time WebVTT writes, without overflowing.
    @Test func aCaptionEndingFarAwayIsWritten() {
        var track = HLSCaptionTrack()
        track.add(Caption(participantID: "p", name: "Alice", text: "forever", start: 1, end: 1e300))
        let cues = Self.cues(track.segment(start: 0, end: 2))
        #expect(cues.count == 1 && cues.first?[1] == "00:00:01.000 --> \(WebVTT.timestamp(WebVTT.latest))", "\(cues)")
    }

    @Test func randomCaptionsNeverBreakASegment() {
        var generator = SeededGenerator(seed: 22)
        var track = HLSCaptionTrack(capacity: 50)
        let times: [Double] = [.nan, .infinity, -.infinity, -5, 0, 1e12]
        var start = 0.0
        for round in 0..<400 {
            let a = round % 7 == 0 ? times.randomElement(using: &generator) ?? 0 : Double.random(in: -10...(start + 20), using: &generator)
            let b = a + Double.random(in: -2...8, using: &generator)
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            track.add(Caption(participantID: "p", name: String(decoding: bytes.prefix(8), as: UTF8.self), text: String(decoding: bytes, as: UTF8.self),
                              start: a, end: b))
            if round % 5 == 0 {
                let segment = track.segment(start: start, end: start + 2)
                start += 2
                #expect(segment.hasPrefix("WEBVTT\n"))
                // Every cue is an identifier, a timing line and one line of text.
                #expect(Self.cues(segment).allSatisfy { $0.count == 3 && $0[1].contains(" --> ") })
            }
            #expect(track.count <= 50)
        }
    }
}
