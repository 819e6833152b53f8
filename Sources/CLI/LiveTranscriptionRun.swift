import Foundation
import JobSpec
import Jobs
import LiveTranscription
import Pipeline
import Platform
import RoomReceiver
import Speech
import Transcription

/// One attempt of a live transcription job (`revue record --spec FILE` with a job of kind
/// transcription): the engine started first (its failure fails the job, 5007, before anyone
/// waits on it), then the room joined as a hidden participant, then every utterance sent to the
/// room until the job is stopped; then what it heard is written as the attempt's transcript
/// (times from the attempt's start), which the worker summarizes when asked.
enum LiveTranscriptionRun {
    static func run(_ spec: PipelineSpec, shouldStop: () -> Bool) throws -> Int32 {
        if let parent = spec.parentPID { ParentWatch.dieWithParent(expected: pid_t(parent)) }
        let events = JobRunReporter.forSpec(spec)
        guard case .room(let room) = spec.source else {
            throw TranscriptionRunError("live transcription needs a live room; room \(spec.job?.id ?? "") is a fixture")
        }
        let request = spec.liveTranscription ?? TranscriptionRequest()
        let model = try SpeechModel.resolve(modelId: request.modelId, modelConfig: request.modelConfig)
        let engine = try model.makeEngine()
        defer { engine.stop() }
        let source = try LiveRoomSource(configuration: .init(signalingURL: room.signalingURL, roomID: room.roomID, token: room.token,
                                                             name: "Transcriber"))
        defer { source.leave() }
        events?.report(.configured(spec.redacted))
        events?.report(.started)
        // The transcript's 0 is the lines' own: the room source's clock at zero (its join).
        let origin = source.wallClockAtZero.timeIntervalSince1970
        var heard = Transcript(engine: engine.description, modelId: model.id)
        let transcriber = LiveTranscriber(engine: engine)
        transcriber.run(source, wallClockAtZero: source.wallClockAtZero, send: { line in
            source.sendTranscription(line)
            // Bounded: a day of back-to-back utterances is far fewer lines.
            guard heard.segments.count < 200_000 else { return }
            heard.segments.append(.init(participantId: line.participantID, participantName: line.name, start: max(0, line.start - origin),
                                        end: max(0, line.end - origin), text: line.text))
        }, shouldStop: shouldStop)
        Console.print("transcribed \(transcriber.linesSent) utterances (\(transcriber.utterancesDropped) dropped) with \(engine.description)")
        if let directory = spec.liveTranscript { try TranscriptFiles.write(heard, to: directory) }
        return 0
    }
}

/// Why a live transcription attempt could not run.
struct TranscriptionRunError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
