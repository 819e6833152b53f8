import Foundation
import JobSpec
import Jobs
import Platform
import Speech
import TestSupport
import Testing

/// A backend records a live room with `transcription: {enabled: true}`: two `revue publish --mic
/// FILE` participants take turns saying sentences espeak-ng spoke, and when the recording stops
/// the worker writes a transcript beside it, each line attributed to its speaker and at the time
/// the MP4 has it, which plays as a caption track in Chromium, and a summary of it by a language
/// model behind llama.cpp's OpenAI-compatible server.
extension LivePipelineSuites {
    @Suite(.browser, .timeLimit(.minutes(10))) struct LiveRecordingTranscriptTests {
        static let names = ["Alice", "Bob"]

        @Test func aRecordingGetsAnAttributedTranscriptAtTheRecordingsTimes() throws {
            let server = try RoomServerHarness()
            let model = try LlamaServer()
            server.startWorker(summaries: model.endpoint)
            defer { server.stopWorker() }
            try server.startWebhooks()
            let webhooks = try WebhookReceiver()
            let room = try server.makeRoom()
            let media = try TemporaryDirectory(prefix: "speech")
            // All 32 sentences: espeak's voices make a few much harder than the rest, and a
            // sample of them gives a word error rate that swings by several points run to run.
            let sentences = SpokenConversation.sentences
            let turns = sentences.enumerated().map { (speaker: $0.offset % 2, text: $0.element) }
            let (tracks, lines) = try SpokenConversation.layOut(turns, speakers: 2, gap: 1.2, lead: 1.5)
            for (index, track) in tracks.enumerated() { try SpokenConversation.writeWAV(track, to: media.file("speaker-\(index).wav")) }
            let spoken = Double(tracks[0].count) / 16_000

            let recording = try server.startTranscribedRecording(room: room, webhookURL: webhooks.url, keepSpeakerAudio: true,
                                                               summaryPrompt: "Write the meeting's topics as three bullet points.")
            #expect(recording.transcription?.state == .waiting)
            // Both join at once and play their tracks from the start: the turns keep their gaps.
            for failure in try server.speakTogether(room: room, names: Self.names, in: media, seconds: spoken) { #expect(failure == nil) }
            defer { print("recorder log:\n" + server.attemptLog(recording)) }
            let finished = try server.stopJob(recording, timeout: 180)
            let status = try #require(finished.transcription)
            #expect(status.state == .stopped, "\(status)")
            let transcriptPart = try #require(finished.parts.first { $0.kind == .transcript })
            #expect(transcriptPart.path == "recordings/\(finished.idText)/part-1.transcript")
            let directory = server.storage.path + "/" + transcriptPart.path

            // Every line by the one who said it; the words said.
            let transcript = try JSONDecoder().decode(TranscriptFile.self, from: Data(contentsOf: URL(fileURLWithPath: directory + "/transcript.json")))
            // Each segment belongs to the sentence it is most like; a sentence was heard as its
            // segments, and is attributed when all of them are its speaker's.
            let score = TranscriptScore(transcript, lines: lines, names: Self.names)
            let (wer, attributed) = (score.wordErrorRate, score.attributed)
            print("recording transcript: WER \(String(format: "%.1f", wer * 100)) %, \(attributed)/\(lines.count) attributed, \(transcript.segments.count) segments")
            #expect(wer <= 0.15)
            #expect(attributed == lines.count)

            // The same words at the same times in the MP4: its mixed audio, transcribed on its own.
            let mp4 = try server.mp4Path(finished)
            let mixed = try Subprocess.run(RevueBinary.path, ["transcribe", mp4, "--format", "json", "--log-level", "warning"])
            #expect(mixed.succeeded, "\(mixed.standardError)")
            let heardInMP4 = try JSONDecoder().decode(TranscriptFile.self, from: Data(mixed.standardOutput.utf8))
            var offsets: [Double] = []
            // Lines heard alike in both (the mix is transcribed a little differently) are compared.
            for segment in transcript.segments {
                guard let match = heardInMP4.segments.max(by: { SpokenConversation.similarity($0.text, segment.text) < SpokenConversation.similarity($1.text, segment.text) }),
                      SpokenConversation.similarity(match.text, segment.text) > 0.6
                else { continue }
                offsets.append(segment.start - match.start)
            }
            print("transcript vs MP4 starts: \(offsets.map { String(format: "%+.2f", $0) })")
            #expect(offsets.count >= lines.count * 2 / 3, "\(offsets.count) of \(lines.count) lines matched")
            #expect(offsets.allSatisfy { abs($0) <= 0.3 })

            // The REST view and the webhook carry the files.
            let view = try server.call("GET", "/v2/recordings/\(finished.idText)")
            let files = view.json["transcription"]?["files"]?.arrayValue ?? []
            #expect(Set(files.compactMap { $0["format"]?.stringValue }) == ["json", "vtt", "srt", "txt", "summary"], "\(view.json.text)")
            #expect(view.json["transcription"]?["summary"]?["state"]?.stringValue == "SUMMARY_MADE", "\(view.json.text)")
            let summaryURL = try #require(files.first { $0["format"]?.stringValue == "summary" }?["fileUrl"]?.stringValue)
            let summary = try TCP.http("GET", summaryURL)
            let summaryText = String(decoding: summary.body, as: UTF8.self)
            print("summary (\(model.model), \(model.completions) requests): \(summaryText.prefix(200))")
            #expect(summary.status == 200 && summaryText.trimmingCharacters(in: .whitespacesAndNewlines).count > 10, "\(summaryURL): \(summary.status)")
            #expect(view.json["transcription"]?["status"]?.stringValue == "TRANSCRIPTION_STOPPED")
            // Its signed URL serves the file.
            let vttURL = try #require(files.first { $0["format"]?.stringValue == "vtt" }?["fileUrl"]?.stringValue)
            let fetched = try TCP.http("GET", vttURL)
            #expect(fetched.status == 200 && String(decoding: fetched.body, as: UTF8.self).hasPrefix("WEBVTT"), "\(vttURL): \(fetched.status)")
            let completed = webhooks.wait(for: 1, timeout: 30).first { $0.type == "transcription-completed" }
                ?? (Poll.until(30) { webhooks.deliveries.contains { $0.type == "transcription-completed" } }
                    ? webhooks.deliveries.first { $0.type == "transcription-completed" } : nil)
            #expect(completed?.data?["transcription"]?["files"]?.arrayValue?.count == 5, "\(webhooks.deliveries.compactMap(\.type))")
            #expect(completed?.data?["transcription"]?["summary"]?["state"]?.stringValue == "SUMMARY_MADE")
            #expect(FileManager.default.fileExists(atPath: server.jobDirectory(finished) + "/speakers/attempt-1/speakers.json"), "kept, as asked")

            // The VTT plays as a caption track beside the MP4 in Chromium: played (at twice the
            // speed), each cue comes up when its time comes. (python's http.server has no byte
            // ranges, so the page plays rather than seeks.)
            let page = try TemporaryDirectory(prefix: "captions")
            try FileManager.default.copyItem(atPath: mp4, toPath: page.file("recording.mp4"))
            try FileManager.default.copyItem(atPath: directory + "/transcript.vtt", toPath: page.file("transcript.vtt"))
            try Data("""
                <!doctype html><video id=v src=recording.mp4 muted preload=auto><track id=t kind=captions src=transcript.vtt default></video>
                <script>
                const video = document.getElementById('v'), track = document.getElementById('t').track;
                track.mode = 'showing';
                window.shown = [];
                track.addEventListener('cuechange', () => {
                  for (const cue of Array.from(track.activeCues || [])) window.shown.push({text: cue.text, start: cue.startTime, at: video.currentTime});
                });
                </script>
                """.utf8).write(to: URL(fileURLWithPath: page.file("index.html")))
            let http = try StaticHTTPServer(directory: page.path)
            let chromium = try HeadlessChromium()
            let tab = try chromium.open(http.url("index.html"))
            #expect(try Poll.until(20) { try tab.evaluate("document.getElementById('v').readyState >= 3") as? Bool == true })
            _ = try tab.evaluate("video.playbackRate = 2; video.play().then(() => 'playing')")
            let bob = try #require(transcript.segments.first { $0.participantName == "Bob" })
            var shown: [[String: Any]] = []
            let seen = try Poll.until(bob.end / 2 + 20) {
                shown = try tab.evaluate("JSON.stringify(window.shown)").flatMap { ($0 as? String)?.data(using: .utf8) }
                    .flatMap { try JSONSerialization.jsonObject(with: $0) as? [[String: Any]] } ?? []
                return shown.contains { ($0["text"] as? String)?.contains("<v Bob>") == true }
            }
            let first = shown.first { ($0["text"] as? String)?.contains("<v Bob>") == true }
            print("Chromium showed: \(shown.prefix(4))")
            #expect(seen && (first?["text"] as? String)?.contains(bob.text.prefix(12)) == true, "\(shown) vs \(bob.text)")
            // Shown when its time came (cuechange runs on the media's time updates, a few a second).
            #expect(abs(((first?["at"] as? Double) ?? -9) - bob.start) <= 0.6, "\(String(describing: first)) vs \(bob.start)")
        }

        /// Bad input the issue names: nobody speaks (an empty transcript, made without the
        /// engine), and a speaker when the engine is missing (TRANSCRIPTION_FAILED with the
        /// reason and its webhook; the recording is kept and STOPPED as it would have been).
        @Test func nobodySpeakingIsAnEmptyTranscriptAndAMissingEngineFailsOnlyTheTranscript() throws {
            let server = try RoomServerHarness()
            server.startWorker(childEnvironment: ["REVUE_SPEECH_VENV": "/nonexistent/speech"])
            defer { server.stopWorker() }
            try server.startWebhooks()
            let webhooks = try WebhookReceiver()
            let room = try server.makeRoom()
            func record(summary: Bool = false, _ during: () throws -> Void) throws -> Job {
                let recording = try server.startTranscribedRecording(room: room, webhookURL: webhooks.url, keepSpeakerAudio: false,
                                                                   summaryPrompt: summary ? "Summarize." : nil)
                try during()
                return try server.stopJob(recording, timeout: 120)
            }

            // A summary asked for from a worker with no model: not made, and said (state and webhook).
            let silent = try record(summary: true) {}
            #expect(silent.transcription?.state == .stopped && silent.transcription?.segments == 0, "\(String(describing: silent.transcription))")
            #expect(silent.transcription?.summary?.state == .failed && silent.transcription?.summary?.error?.contains("REVUE_SUMMARY_URL") == true,
                    "\(String(describing: silent.transcription))")
            #expect(Poll.until(30) { webhooks.deliveries.contains { $0.type == "transcription-completed" } })
            let told = webhooks.deliveries.first { $0.type == "transcription-completed" }?.data?["transcription"]?["summary"]
            #expect(told?["state"]?.stringValue == "SUMMARY_FAILED" && told?["error"]?.stringValue?.contains("no summary endpoint") == true,
                    "\(String(describing: told))")
            let part = try #require(silent.parts.first { $0.kind == .transcript })
            #expect(try String(contentsOfFile: server.storage.path + "/" + part.path + "/transcript.vtt", encoding: .utf8) == "WEBVTT\n\n")

            let media = try TemporaryDirectory(prefix: "no-engine")
            let (tracks, _) = try SpokenConversation.layOut([(speaker: 0, text: SpokenConversation.sentences[0])], speakers: 1, gap: 0.5, lead: 0.5)
            try SpokenConversation.writeWAV(tracks[0], to: media.file("alice.wav"))
            let spoken = try record {
                let publisher = try server.micPublisher(room: room, name: "Alice", wav: media.file("alice.wav"), seconds: Double(tracks[0].count) / 16_000,
                                                        log: media.file("publish.log"))
                #expect(RoomServerHarness.publisherFailure(publisher, timeout: 60, log: media.file("publish.log")) == nil)
            }
            #expect(spoken.state == .stopped, "the recording is not failed by its transcript")
            #expect(spoken.transcription?.state == .failed, "\(String(describing: spoken.transcription))")
            #expect(spoken.transcription?.error?.contains("REVUE_SPEECH_VENV is /nonexistent/speech") == true, "\(String(describing: spoken.transcription))")
            #expect(!spoken.parts.contains { $0.kind == .transcript }, "no transcript is listed")
            let decode = try Tool.decodeFully(try server.mp4Path(spoken))
            #expect(decode.status == 0, "the recording is kept: \(decode.standardError)")
            #expect(Poll.until(30) { webhooks.deliveries.contains { $0.type == "transcription-failed" } },
                    "\(webhooks.deliveries.compactMap(\.type))")
            let failed = webhooks.deliveries.first { $0.type == "transcription-failed" }
            #expect(failed?.data?["transcription"]?["status"]?.stringValue == "TRANSCRIPTION_FAILED")
        }
    }
}
