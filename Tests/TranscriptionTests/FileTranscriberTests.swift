import Foundation
import Speech
import Testing
import TestSupport

@testable import Transcription

/// Speakers' own tracks, made with espeak-ng from SpokenConversation's sentences, transcribed
/// by the real engine: what was said, by whom, and when.
@Suite(.live, .serialized) struct FileTranscriberTests {
    static func transcribe(_ tracks: [[Float]], names: [String], in directory: TemporaryDirectory) throws -> Transcript {
        var speakers: [SpeakerAudio] = []
        for (index, track) in tracks.enumerated() {
            let path = directory.file("speaker-\(index).wav")
            try SpokenConversation.writeWAV(track, to: path)
            speakers.append(SpeakerAudio(path: path, participantId: "p\(index)", participantName: names[index]))
        }
        let model = try SpeechModel.resolve(modelId: nil, modelConfig: nil)
        let engine = try WhisperHelperEngine(runtime: SpeechRuntime.locate(), model: model)
        defer { engine.stop() }
        return try FileTranscriber(engine: engine, modelId: model.id).transcribe(speakers)
    }

    /// The segment of `transcript` that overlaps `line` most.
    static func segment(for line: SpokenConversation.Line, in transcript: Transcript) -> Transcript.Segment? {
        transcript.segments.max { overlap($0, line) < overlap($1, line) }.flatMap { overlap($0, line) > 0 ? $0 : nil }
    }

    static func overlap(_ segment: Transcript.Segment, _ line: SpokenConversation.Line) -> Double {
        min(segment.end, line.end) - max(segment.start, line.start)
    }

    /// Two speakers take turns through all thirty-two sentences.
    @Test func twoSpeakersTakingTurns() throws {
        let directory = try TemporaryDirectory(prefix: "turns")
        let turns = SpokenConversation.sentences.enumerated().map { (speaker: $0.offset % 2, text: $0.element) }
        let (tracks, lines) = try SpokenConversation.layOut(turns, speakers: 2, gap: 0.9)
        let transcript = try Self.transcribe(tracks, names: ["Alice", "Bob"], in: directory)
        let names = ["Alice", "Bob"]
        var attributed = 0, onTime = 0
        var pairs: [(reference: String, hypothesis: String)] = []
        for line in lines {
            // Every segment said during the line, by anyone, is what was heard for it.
            let heard = transcript.ordered.filter { Self.overlap($0, line) > 0 }
            pairs.append((line.text, heard.map(\.text).joined(separator: " ")))
            if !heard.isEmpty, heard.allSatisfy({ $0.participantName == names[line.speaker] }) { attributed += 1 }
            if let first = heard.first, abs(first.start - line.start) <= 0.3 { onTime += 1 }
        }
        let rate = WordErrorRate(pairs: pairs)
        print("two speakers: WER \(String(format: "%.1f", rate.rate * 100)) % (\(rate.errors) of \(rate.referenceWords) words), "
            + "\(attributed)/\(lines.count) attributed, \(onTime)/\(lines.count) within 0.3 s")
        #expect(rate.rate <= 0.15)
        #expect(attributed == lines.count)
        #expect(onTime == lines.count)
    }

    /// Three speakers, each starting before the one before has finished: each is transcribed from
    /// their own track.
    @Test func threeSpeakersAndOverlap() throws {
        let directory = try TemporaryDirectory(prefix: "overlap")
        let sentences = SpokenConversation.sentences
        let turns = sentences.enumerated().map { (speaker: $0.offset % 3, text: $0.element) }
        // A negative gap: each sentence starts 0.8 s before the one before it ends.
        let (tracks, lines) = try SpokenConversation.layOut(turns, speakers: 3, gap: -0.8)
        let names = ["Alice", "Bob", "Carol"]
        let transcript = try Self.transcribe(tracks, names: names, in: directory)
        var pairs: [(reference: String, hypothesis: String)] = []
        for line in lines {
            let heard = transcript.ordered.filter { $0.participantName == names[line.speaker] && Self.overlap($0, line) > 0 }
            pairs.append((line.text, heard.map(\.text).joined(separator: " ")))
        }
        let rate = WordErrorRate(pairs: pairs)
        print("three overlapping speakers: WER \(String(format: "%.1f", rate.rate * 100)) % (\(rate.errors) of \(rate.referenceWords) words)")
        #expect(rate.rate <= 0.15)
        #expect(Set(transcript.segments.map(\.participantName)) == Set(names))
    }

    /// Silence, a steady hiss and a chord: no words invented, no error.
    @Test func silenceNoiseAndMusicGiveNoWords() throws {
        let directory = try TemporaryDirectory(prefix: "quiet")
        var generator = SeededGenerator(seed: 5)
        let silence = [Float](repeating: 0, count: 16_000 * 20)
        let hiss = (0..<(16_000 * 20)).map { _ in Float.random(in: -0.05...0.05, using: &generator) }
        let chord = (0..<(16_000 * 20)).map { index -> Float in
            let time = Float(index) / 16_000
            return 0.1 * (sin(2 * .pi * 261.6 * time) + sin(2 * .pi * 329.6 * time) + sin(2 * .pi * 392 * time))
        }
        let transcript = try Self.transcribe([silence, hiss, chord], names: ["Quiet", "Hiss", "Chord"], in: directory)
        #expect(transcript.segments.isEmpty, "\(transcript.segments.map { "\($0.participantName): \($0.text)" })")
    }

    @Test func anUnreadableFileIsAClearError() throws {
        let directory = try TemporaryDirectory(prefix: "bad")
        let path = directory.file("not-audio.wav")
        try Data("this is not a wav file".utf8).write(to: URL(fileURLWithPath: path))
        let engine = try WhisperHelperEngine(runtime: SpeechRuntime.locate(), model: SpeechModel.resolve(modelId: nil, modelConfig: nil))
        defer { engine.stop() }
        #expect { try FileTranscriber(engine: engine, modelId: "whisper-tiny.en").transcribe([SpeakerAudio(path: path, participantId: "p", participantName: "P")]) } throws: {
            ($0 as? TranscriptionError)?.description.contains("not-audio.wav") == true
        }
    }

    @Test func filesAreWrittenWhole() throws {
        let directory = try TemporaryDirectory(prefix: "files")
        let transcript = Transcript(engine: "e", modelId: "m", segments: [.init(participantId: "a", participantName: "A", start: 1, end: 2, text: "Hello.")])
        let paths = try TranscriptFiles.write(transcript, to: directory.file("out"))
        #expect(paths.map { URL(fileURLWithPath: $0).lastPathComponent } == ["transcript.json", "transcript.vtt", "transcript.srt", "transcript.txt"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("out")).filter { $0.hasSuffix(".partial") }.isEmpty)
        #expect(try String(contentsOfFile: directory.file("out/transcript.vtt"), encoding: .utf8).contains("<v A>Hello.</v>"))
    }
}
