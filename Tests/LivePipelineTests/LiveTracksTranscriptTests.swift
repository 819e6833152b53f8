import Foundation
import JobSpec
import Jobs
import Outputs
import Platform
import TestSupport
import Testing

/// A per-participant recording (`config.mode: "tracks"`) with `transcription: {enabled: true}`:
/// two `revue publish --mic FILE` participants take turns saying sentences espeak-ng spoke; when
/// it stops, the worker transcribes each participant's own audio track, placed on the room's
/// clock by the manifest, into a transcript beside the part. Every line is attributed to its
/// speaker, the words are the ones said, and each line's time is where it was said (the same
/// offset from the script for every line, both speakers), and the tracks stay.
extension LivePipelineSuites {
    @Suite(.live, .timeLimit(.minutes(10))) struct LiveTracksTranscriptTests {
        static let names = ["Alice", "Bob"]

        @Test func aPerParticipantRecordingIsTranscribedFromItsOwnTracks() throws {
            let server = try RoomServerHarness()
            server.startWorker()
            defer { server.stopWorker() }
            try server.startWebhooks()
            let webhooks = try WebhookReceiver()
            let room = try server.makeRoom()
            let media = try TemporaryDirectory(prefix: "tracks-speech")
            // Twelve sentences, each speaker six; the espeak voices that are hardest are in the
            // 32-sentence test (LiveRecordingTranscriptTests), whose word error rate is the figure.
            let turns = SpokenConversation.sentences.prefix(12).enumerated().map { (speaker: $0.offset % 2, text: $0.element) }
            // A longer lead than the composite's test: the recording subscribes to each track
            // as it is published, so the first words must not come at once.
            let (tracks, lines) = try SpokenConversation.layOut(turns, speakers: 2, gap: 1.2, lead: 3)
            for (index, track) in tracks.enumerated() { try SpokenConversation.writeWAV(track, to: media.file("speaker-\(index).wav")) }
            let spoken = Double(tracks[0].count) / 16_000

            let recording = try server.startTranscribedRecording(room: room, webhookURL: webhooks.url, keepSpeakerAudio: false, mode: "tracks",
                                                                 waitingForStart: false)
            #expect(recording.transcription?.state == .waiting)
            for failure in try server.speakTogether(room: room, names: Self.names, in: media, seconds: spoken) { #expect(failure == nil) }
            defer { print("recorder log:\n" + server.attemptLog(recording)) }
            let finished = try server.stopJob(recording, timeout: 180)
            let status = try #require(finished.transcription)
            #expect(status.state == .stopped, "\(status)")
            let transcriptPart = try #require(finished.parts.first { $0.kind == .transcript }, "\(finished.parts)")
            #expect(transcriptPart.path == "recordings/\(finished.idText)/part-1.transcript")
            let tracksPart = try #require(finished.parts.first { $0.kind == .tracks })
            let manifest = try #require(TrackManifest.read(directory: server.storage.path + "/" + tracksPart.path))
            #expect(manifest.tracks.filter { $0.kind == "audio" }.count == 2, "\(manifest.tracks)")
            for track in manifest.tracks {
                #expect(FileManager.default.fileExists(atPath: server.storage.path + "/" + tracksPart.path + "/" + track.file),
                        "\(track.file) is the recording: kept after its transcript")
            }

            let transcript = try JSONDecoder().decode(TranscriptFile.self, from: Data(contentsOf: URL(
                fileURLWithPath: server.storage.path + "/" + transcriptPart.path + "/transcript.json")))
            let score = TranscriptScore(transcript, lines: lines, names: Self.names)
            let (heard, wer, attributed) = (score.heard, score.wordErrorRate, score.attributed)
            // Where each line was heard against where the script put it: one offset for all (when
            // the publishers started on the room's clock), whichever speaker's track it is in.
            let offsets = zip(lines, heard).compactMap { line, segments in segments.first.map { $0.start - line.start } }
            try #require(!offsets.isEmpty, "no line was heard")
            let median = offsets.sorted()[offsets.count / 2]
            print("tracks transcript: WER \(String(format: "%.1f", wer * 100)) %, \(attributed)/\(lines.count) attributed, "
                + "offsets from the script \(offsets.map { String(format: "%+.2f", $0) })")
            #expect(wer <= 0.2)
            #expect(attributed == lines.count)
            #expect(offsets.count == lines.count && offsets.allSatisfy { abs($0 - median) <= 0.4 }, "\(offsets)")

            // The REST view carries the transcript's files.
            let view = try server.call("GET", "/v2/recordings/\(finished.idText)")
            let files = view.json["transcription"]?["files"]?.arrayValue ?? []
            #expect(Set(files.compactMap { $0["format"]?.stringValue }) == ["json", "vtt", "srt", "txt"], "\(view.json.text)")
            #expect(view.json["transcription"]?["status"]?.stringValue == "TRANSCRIPTION_STOPPED")
        }
    }
}
