import Foundation
import Platform
import Speech
import Testing
import TestSupport

@testable import Transcription

/// A two-hour recording's transcript, as a worker makes it (`revue transcribe --speakers`): the
/// speaker audio a recording keeps (16 kHz WAV per participant, one of them joined an hour in),
/// mostly silence with sentences near the start, the middle and the end. Every sentence is
/// found at its time (no drift over two hours), by its speaker, with the process's memory
/// bounded by what it reads at once rather than by the recording's length.
@Suite(.live) struct LongRecordingTranscriptTests {
    struct Placed {
        var speaker: Int
        var text: String
        /// Seconds on the recording's clock the sentence is placed at.
        var at: Double
    }

    @Test func aTwoHourRecordingIsTranscribedAtItsTimesInBoundedMemory() throws {
        let directory = try TemporaryDirectory(prefix: "two-hours")
        let names = ["Alice", "Bob"]
        let sentences = SpokenConversation.sentences
        // Alice is there for two hours; Bob joins at 1:00:00 and stays to the end.
        let lengths = [7_200.0, 3_600.0], offsets = [0.0, 3_600.0]
        let placed = [
            Placed(speaker: 0, text: sentences[0], at: 300), Placed(speaker: 1, text: sentences[5], at: 3_700),
            Placed(speaker: 0, text: sentences[1], at: 3_590), Placed(speaker: 1, text: sentences[22], at: 7_100),
            Placed(speaker: 0, text: sentences[23], at: 7_150),
        ]
        // Where each sentence's voice starts on the recording's clock.
        var voiced = [Double](repeating: 0, count: placed.count)
        var manifest = SpeakerTracks()
        for speaker in 0..<2 {
            let mine = placed.indices.filter { placed[$0].speaker == speaker }
            let speech = try mine.map { try SpokenConversation.speak(placed[$0].text, voice: SpokenConversation.voices[speaker]) }
            let file = "speaker-\(speaker + 1).wav"
            let starts = try Self.writeLongWAV(seconds: lengths[speaker], placing: zip(mine, speech).map { (placed[$0].at - offsets[speaker], $1) },
                                               to: directory.file(file))
            for (index, start) in zip(mine, starts) { voiced[index] = start + offsets[speaker] }
            manifest.speakers.append(.init(participantId: "p\(speaker + 1)", name: names[speaker], file: file, offset: offsets[speaker]))
        }
        try JSONEncoder().encode(manifest).write(to: URL(fileURLWithPath: directory.file(SpeakerTracks.manifestName)))

        let log = directory.file("transcribe.log")
        let process = try Subprocess(RevueBinary.path, ["transcribe", "--speakers", directory.file(SpeakerTracks.manifestName), "--out", directory.file("out"),
                                                        "--log-level", "warning"], standardOutput: .file(log), standardError: .file(log))
        // The largest resident set the process had (VmHWM), read until it exits.
        var peakKilobytes = 0
        var termination: Subprocess.Termination?
        while termination == nil {
            if let status = try? String(contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8),
               let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
               let value = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
            {
                peakKilobytes = max(peakKilobytes, value)
            }
            termination = process.wait(timeout: 0.2)
        }
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(termination == .exited(0), "\(output.suffix(600))")
        let transcript = try JSONDecoder().decode(Transcript.self, from: Data(contentsOf: URL(fileURLWithPath: directory.file("out/transcript.json"))))
        let ordered = placed.indices.sorted { placed[$0].at < placed[$1].at }
        var offsetsFound: [Double] = []
        var pairs: [(reference: String, hypothesis: String)] = []
        for index in ordered {
            let sentence = placed[index]
            let segment = transcript.segments.first { abs($0.start - voiced[index]) < 5 }
            #expect(segment?.participantName == names[sentence.speaker], "\(sentence.text) at \(sentence.at): \(String(describing: segment))")
            if let segment {
                pairs.append((sentence.text, segment.text))
                offsetsFound.append(segment.start - voiced[index])
            }
        }
        print("two-hour recording: \(transcript.segments.count) segments for \(placed.count) sentences, starts vs voice "
            + "\(offsetsFound.map { String(format: "%+.2f", $0) }) s, peak memory \(peakKilobytes / 1024) MiB for "
            + "\(Int(lengths.reduce(0, +) / 3600)) hours of speaker audio")
        #expect(transcript.segments.count == placed.count)
        #expect(WordErrorRate(pairs: pairs).rate <= 0.15, "\(pairs)")
        #expect(offsetsFound.count == placed.count && offsetsFound.allSatisfy { abs($0) <= 0.3 })
        // The WAV files hold 345 MB of samples; what is read at once is seconds of them.
        #expect(peakKilobytes > 0 && peakKilobytes < 200 * 1024, "peak \(peakKilobytes) kB")
        #expect(try String(contentsOfFile: directory.file("out/transcript.vtt"), encoding: .utf8).contains("01:59:"))
    }

    /// Writes `seconds` of 16 kHz mono 16-bit silence with each speech placed at its time, a
    /// megabyte at a time; the times (seconds in the file) where each one's voice starts.
    static func writeLongWAV(seconds: Double, placing speeches: [(at: Double, samples: [Float])], to path: String) throws -> [Double] {
        let total = Int(seconds * 16_000)
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw ToolError("cannot write \(path)")
        }
        defer { try? handle.close() }
        try handle.write(contentsOf: SpokenConversation.wavHeader(samples: total))
        let placed = speeches.map { (start: Int($0.at * 16_000), samples: $0.samples) }
        let chunk = 512 * 1024
        var written = 0
        while written < total {
            let count = min(chunk, total - written)
            var samples = [Int16](repeating: 0, count: count)
            for speech in placed where speech.start < written + count && speech.start + speech.samples.count > written {
                for index in max(speech.start, written)..<min(speech.start + speech.samples.count, written + count) {
                    samples[index - written] = SpokenConversation.pcm16(speech.samples[index - speech.start])
                }
            }
            try handle.write(contentsOf: samples.withUnsafeBytes { Data($0) })
            written += count
        }
        return placed.map { speech in Double(speech.start + (speech.samples.firstIndex { abs($0) > 0.01 } ?? 0)) / 16_000 }
    }
}
