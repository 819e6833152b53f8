import Foundation
import Platform

/// The fallback engine for a machine without the faster-whisper venv: CMU PocketSphinx with
/// Debian's `pocketsphinx-en-us` model, through libavfilter's `asr` filter, run by Debian's
/// `ffmpeg` for each utterance (the filter says what it heard in the frame metadata
/// `lavfi.asr.text` when the utterance ends; 2 s of silence after it make it end). No word times:
/// one segment an utterance. Far less accurate than Whisper (docs/TRANSCRIPTION.md: about 32 %
/// WER on LibriSpeech test-clean, much worse on espeak's voices); chosen only by asking for it
/// (`modelId: pocketsphinx-en-us`), never put in Whisper's place silently.
public final class PocketSphinxEngine: SpeechEngine {
    public static let modelDirectory = "/usr/share/pocketsphinx/model/en-us"
    public static let timeout = 60.0

    public let ffmpeg: String
    public var description: String { "PocketSphinx (libavfilter asr), en-us" }

    /// Fails with `.unavailable` and what to install when ffmpeg or the model is missing.
    public init(ffmpeg: String = "/usr/bin/ffmpeg") throws(SpeechError) {
        guard FileManager.default.isExecutableFile(atPath: ffmpeg) else {
            throw SpeechError(.unavailable, "PocketSphinx runs through ffmpeg's asr filter and \(ffmpeg) is missing: install Debian's ffmpeg")
        }
        for file in ["en-us/mdef", "en-us.lm.bin", "cmudict-en-us.dict"] where !FileManager.default.fileExists(atPath: Self.modelDirectory + "/" + file) {
            throw SpeechError(.unavailable, "the PocketSphinx model is missing (\(Self.modelDirectory)/\(file)): install Debian's pocketsphinx-en-us")
        }
        self.ffmpeg = ffmpeg
    }

    public func transcribe(_ utterance: Utterance) throws(SpeechError) -> [RecognizedSegment] {
        let base = NSTemporaryDirectory() + "revue-pocketsphinx-\(UUID().uuidString)"
        let input = base + ".wav", log = base + ".log"
        defer {
            unlink(input)
            unlink(log)
        }
        do {
            try UtteranceFile.write(utterance, to: input)
        } catch {
            throw SpeechError(.failed, "cannot write the utterance for PocketSphinx: \(error)")
        }
        let model = Self.modelDirectory
        let filter = "apad=pad_dur=2,asr=hmm=\(model)/en-us:dict=\(model)/cmudict-en-us.dict:lm=\(model)/en-us.lm.bin,ametadata=mode=print:key=lavfi.asr.text"
        let process: Subprocess
        do {
            process = try Subprocess(ffmpeg, ["-hide_banner", "-nostdin", "-loglevel", "info", "-i", input, "-af", filter, "-f", "null", "-"],
                                     standardOutput: .discard, standardError: .file(log))
        } catch {
            throw SpeechError(.unavailable, "ffmpeg could not be started: \(error)")
        }
        guard let termination = process.wait(timeout: Self.timeout + utterance.duration * 4) else {
            process.signal(SIGKILL)
            process.wait()
            throw SpeechError(.failed, "PocketSphinx took too long on a \(String(format: "%.1f", utterance.duration)) s utterance")
        }
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard termination == .exited(0) else {
            throw SpeechError(.failed, "ffmpeg's asr filter ended with \(termination): \(output.suffix(300))")
        }
        let text = Self.heard(in: output)
        return text.isEmpty ? [] : [RecognizedSegment(start: 0, end: utterance.duration, text: text)]
    }

    public func stop() {}

    /// What the filter printed as `lavfi.asr.text=…`, each utterance it ended, joined.
    static func heard(in log: String) -> String {
        log.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "lavfi.asr.text=") else { return nil }
            return String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }.joined(separator: " ")
    }
}
