import Testing

@testable import Speech

@Suite struct TranscriptFormatTests {
    static let transcript = Transcript(engine: "test", modelId: "whisper-tiny.en", segments: [
        .init(participantId: "p2", participantName: "Bob <B&B>", start: 3.5, end: 5.25, text: "Fine --> thanks & you?"),
        .init(participantId: "p1", participantName: "Alice", start: 0.25, end: 2, text: "Hello Bob.\n\nHow are you?",
              words: [RecognizedWord(start: 0.25, end: 0.6, word: "Hello", probability: 0.9)]),
    ])

    @Test func webVTTNamesEachSpeakerWithAVoiceSpanInTimeOrder() {
        let text = TranscriptFormat.vtt.render(Self.transcript)
        #expect(text == """
            WEBVTT

            1
            00:00:00.250 --> 00:00:02.000
            <v Alice>Hello Bob. How are you?</v>

            2
            00:00:03.500 --> 00:00:05.250
            <v Bob &lt;B&amp;B&gt;>Fine -&gt; thanks &amp; you?</v>


            """)
    }

    @Test func subRipUsesACommaAndNamesTheSpeaker() {
        let text = TranscriptFormat.srt.render(Self.transcript)
        #expect(text.hasPrefix("1\n00:00:00,250 --> 00:00:02,000\nAlice: Hello Bob. How are you?\n\n2\n00:00:03,500 --> 00:00:05,250\nBob <B&B>: Fine -> thanks & you?\n"))
    }

    @Test func plainTextHasOneLineASegment() {
        #expect(TranscriptFormat.txt.render(Self.transcript) == "[00:00:00] Alice: Hello Bob. How are you?\n[00:00:03] Bob <B&B>: Fine -> thanks & you?\n")
    }

    @Test func jsonRoundTripsInTimeOrder() throws {
        let text = TranscriptFormat.json.render(Self.transcript)
        let decoded = try JSONDecoder().decode(Transcript.self, from: Data(text.utf8))
        #expect(decoded.segments.map(\.participantId) == ["p1", "p2"])
        #expect(decoded.segments.first?.words.first?.word == "Hello")
    }

    @Test func timestampsCarryHoursAndRound() {
        #expect(TranscriptFormat.timestamp(3_723.4567, separator: ".") == "01:02:03.457")
        #expect(TranscriptFormat.timestamp(-1, separator: ",") == "00:00:00,000")
        #expect(TranscriptFormat.timestamp(.nan, separator: ".") == "00:00:00.000")
    }
}

import Foundation
