import Decode
import Foundation
import Log
import Speech

/// Transcribes speakers' audio files: each file is read at 16 kHz in blocks, cut into utterances
/// by voice activity detection and sent to the engine one utterance at a time, so a two-hour
/// file needs no more memory than its longest utterance. Each speaker's words are attributed to
/// them; the transcript interleaves speakers by time.
///
/// Blocking; one thread per transcription.
public struct FileTranscriber: Sendable {
    /// How far it has got: seconds of audio read, of the total when the files say.
    public struct Progress: Sendable, Equatable {
        public var secondsRead: Double
        public var secondsTotal: Double?
        public var utterances: Int
    }

    public let engine: any SpeechEngine
    public let modelId: String
    public let logger: Logger
    /// Sees each utterance before it goes to the engine (`revue transcribe --utterances`, and
    /// bench/transcription's reference, which transcribes the same ones).
    public var onUtterance: (@Sendable (SpeakerAudio, Utterance) -> Void)?

    public init(engine: any SpeechEngine, modelId: String, logger: Logger = Logger(label: "transcribe")) {
        self.engine = engine
        self.modelId = modelId
        self.logger = logger
    }

    public func transcribe(_ speakers: [SpeakerAudio], progress: (Progress) -> Void = { _ in }) throws(TranscriptionError) -> Transcript {
        var transcript = Transcript(engine: engine.description, modelId: modelId)
        var state = Progress(secondsRead: 0, secondsTotal: nil, utterances: 0)
        // Every file is opened first (so one that cannot be read fails before any work) and
        // closed again: a per-participant recording may have hundreds, read one at a time.
        var readable: [SpeakerAudio] = []
        var durations: [Double] = []
        for speaker in speakers {
            do {
                if let duration = try open(speaker).duration { durations.append(duration) }
                readable.append(speaker)
            } catch {
                guard speaker.mayBeUnreadable else { throw TranscriptionError(error.description) }
                logger.warning("a track that cannot be read is left out of the transcript", ["error": .string(error.description)])
            }
        }
        state.secondsTotal = durations.count == readable.count ? durations.reduce(0, +) : nil
        var lastReport = 0.0
        for speaker in readable {
            let reader: AudioFileReader
            do {
                reader = try open(speaker)
            } catch {
                throw TranscriptionError(error.description)
            }
            var detector = VoiceActivityDetector(origin: 0)
            var readHere = 0
            func recognise(_ utterances: [Utterance]) throws(TranscriptionError) {
                for utterance in utterances {
                    onUtterance?(speaker, utterance)
                    let segments: [RecognizedSegment]
                    do {
                        segments = utterance.placed(try engine.transcribe(utterance))
                    } catch {
                        throw TranscriptionError("\(speaker.participantName) at \(String(format: "%.1f", utterance.start)) s: \(error)")
                    }
                    transcript.append(segments, offset: speaker.offset + utterance.start, participantId: speaker.participantId,
                                      participantName: speaker.participantName)
                    state.utterances += 1
                }
            }
            while true {
                let block: [Float]
                do {
                    guard let next = try reader.next() else { break }
                    block = next
                } catch {
                    guard speaker.mayBeUnreadable else { throw TranscriptionError(error.description) }
                    // What was read before the damage is kept.
                    logger.warning("a track could not be read to its end; the transcript has it up to there",
                                   ["error": .string(error.description), "seconds": .double(Double(readHere) / Double(Utterance.sampleRate))])
                    break
                }
                readHere += block.count
                try recognise(detector.feed(block))
                state.secondsRead += Double(block.count) / Double(Utterance.sampleRate)
                if state.secondsRead - lastReport >= 30 {
                    lastReport = state.secondsRead
                    progress(state)
                }
            }
            try recognise(detector.flush())
            logger.info("speaker transcribed", ["participant": .string(speaker.participantId),
                                                "seconds": .double(Double(readHere) / Double(Utterance.sampleRate))])
        }
        progress(state)
        return transcript
    }

    private func open(_ speaker: SpeakerAudio) throws(AudioFileReader.ReadError) -> AudioFileReader {
        try AudioFileReader(path: speaker.path, rate: Utterance.sampleRate, followingTimestamps: speaker.followingTimestamps)
    }
}
