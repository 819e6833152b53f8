import Foundation
import JobSpec
import Jobs
import Platform
import Speech
import TestSupport
import Testing

/// A recording's transcript through a takeover: the worker making it is killed, and the next
/// holder makes it whole, once.
extension LivePipelineSuites {
    @Suite(.browser, .timeLimit(.minutes(10))) struct TranscriptTakeoverTests {
        static let names = ["Alice", "Bob"]

        /// A worker killed with SIGKILL while it makes a stopped recording's transcript: its
        /// `revue transcribe` child dies with it, nothing is listed as a transcript meanwhile, and
        /// the worker that takes the job over makes the whole transcript once (one part, one
        /// `transcription-completed`), every line attributed.
        @Test func aWorkerKilledWhileTranscribingLeavesNothingListedAndTheNextHolderMakesTheTranscript() throws {
            let server = try RoomServerHarness()
            try server.startWebhooks()
            let webhooks = try WebhookReceiver()
            let logs = try TemporaryDirectory(prefix: "transcript-takeover")
            let room = try server.makeRoom()
            let first = try server.startWorkerProcess("worker-a", log: logs.file("worker-a"))
            var second: Subprocess?
            defer {
                first.killAndReap()
                second?.killAndReap()
            }
            let sentences = Array(SpokenConversation.sentences.prefix(12))
            let turns = sentences.enumerated().map { (speaker: $0.offset % 2, text: $0.element) }
            let (tracks, lines) = try SpokenConversation.layOut(turns, speakers: 2, gap: 1.2, lead: 1.5)
            for (index, track) in tracks.enumerated() { try SpokenConversation.writeWAV(track, to: logs.file("speaker-\(index).wav")) }
            let spoken = Double(tracks[0].count) / 16_000
            let recording = try server.startTranscribedRecording(room: room, webhookURL: webhooks.url, keepSpeakerAudio: false)
            defer {
                for attempt in 1...2 { print("attempt \(attempt) log:\n" + server.attemptLog(recording, attempt: attempt)) }
                for worker in ["worker-a", "worker-b"] { print("\(worker) log:\n" + ((try? String(contentsOfFile: logs.file(worker), encoding: .utf8)) ?? "none")) }
            }
            let publishers = try (0..<2).map { index in
                try server.micPublisher(room: room, name: Self.names[index], wav: logs.file("speaker-\(index).wav"), seconds: spoken,
                                        log: logs.file("publish-\(index).log"))
            }
            for (index, publisher) in publishers.enumerated() {
                #expect(RoomServerHarness.publisherFailure(publisher, timeout: spoken + 30, log: logs.file("publish-\(index).log")) == nil)
            }

            // Stopped: worker-a writes the MP4, then starts transcribing it.
            let stop = try server.call("POST", "/v2/recordings/stop", .object(["roomId": .string(room)]))
            #expect(stop.status == 200, "\(stop.json.text)")
            let store = server.api.store
            var transcriber: Int32?
            let transcribing = Poll.until(60) {
                guard (try? store.job(recording.id))?.transcription?.state == .started else { return false }
                transcriber = Self.child(of: first.pid, running: "transcribe")
                return transcriber != nil
            }
            let atKill = try store.job(recording.id)
            #expect(transcribing, "worker-a never transcribed: \(String(describing: atKill))")
            #expect(atKill?.parts.contains { $0.kind == .transcript } == false, "\(String(describing: atKill?.parts))")
            second = try server.startWorkerProcess("worker-b", log: logs.file("worker-b"))
            first.killAndReap()
            // Its transcriber dies with it (PR_SET_PDEATHSIG): only the next holder writes the transcript.
            let orphanGone = Poll.until(5) { transcriber.map { kill($0, 0) != 0 } ?? true }
            #expect(orphanGone, "worker-a's revue transcribe (pid \(String(describing: transcriber))) outlived it")

            // Until worker-b has made it, no transcript is listed, and nothing says it is done.
            // (Once made, it is listed and its state set a moment before the job's own state:
            // a poll may fall between them.)
            var listedEarly: [String] = []
            var finished: Job?
            let made = { (job: Job) in
                job.parts.contains { $0.kind == .transcript
                    && FileManager.default.fileExists(atPath: server.storage.path + "/" + $0.path + "/transcript.json") }
            }
            _ = Poll.until(120) {
                guard let now = try? store.job(recording.id) else { return false }
                if now.state != .stopped, now.parts.contains(where: { $0.kind == .transcript }) || now.transcription?.state == .stopped, !made(now) {
                    listedEarly.append("\(now.state) \(String(describing: now.transcription?.state)) \(now.parts.map(\.path))")
                }
                finished = now
                return now.state == .stopped
            }
            let done = try #require(finished)
            #expect(done.state == .stopped && done.attempts == 2, "\(done)")
            let history = try store.events(of: recording.id).compactMap(\.detail)
            #expect(history.contains { $0.hasPrefix("attempt 2: taken over from worker-a") }, "\(history)")
            #expect(listedEarly.isEmpty, "\(listedEarly)")
            #expect(done.transcription?.state == .stopped, "\(String(describing: done.transcription))")
            let transcripts = done.parts.filter { $0.kind == .transcript }
            #expect(transcripts.map(\.path) == ["recordings/\(done.idText)/part-1.transcript"], "\(done.parts)")
            let directory = server.storage.path + "/" + (transcripts.first?.path ?? "")
            let transcript = try JSONDecoder().decode(TranscriptFile.self,
                                                      from: Data(contentsOf: URL(fileURLWithPath: directory + "/transcript.json")))
            var attributed = 0
            for line in lines {
                let best = transcript.segments.max { SpokenConversation.similarity($0.text, line.text) < SpokenConversation.similarity($1.text, line.text) }
                if let best, SpokenConversation.similarity(best.text, line.text) > 0.4, best.participantName == Self.names[line.speaker] { attributed += 1 }
            }
            print("transcript after a takeover: \(transcript.segments.count) segments, \(attributed)/\(lines.count) sentences found by their speaker")
            #expect(attributed >= lines.count - 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
                == ["transcript.json", "transcript.srt", "transcript.txt", "transcript.vtt"])
            #expect(Poll.until(30) { webhooks.deliveries.contains { $0.type == "transcription-completed" } })
            #expect(webhooks.deliveries.filter { $0.type == "transcription-completed" }.count == 1, "\(webhooks.deliveries.compactMap(\.type))")
        }

        /// A child process of `parent` whose command line contains `word`; its pid.
        static func child(of parent: Int32, running word: String) -> Int32? {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            for entry in entries {
                guard let pid = Int32(entry),
                      let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")")
                else { continue }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                guard fields.count > 2, Int32(fields[1]) == parent,
                      let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")
                else { continue }
                if String(decoding: command, as: UTF8.self).split(separator: "\0").contains(where: { $0 == word }) { return pid }
            }
            return nil
        }
    }
}
