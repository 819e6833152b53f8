import Foundation
import JobSpec
import Jobs
import Platform
import Speech
import TestSupport
import Testing

/// Live transcription with three speakers (a signalling member and Chromium on the join page
/// listening), and a recording's transcript through a takeover: the
/// cases the two-speaker tests (RevueSDKTests.LiveTranscriptionTests, LiveRecordingTranscriptTests)
/// do not reach.
extension BrowserRoomTests {
    @Suite(.browser, .timeLimit(.minutes(10))) struct LiveSpeechTests {
        static let names = ["Alice", "Bob", "Carol"]

        /// Three `revue publish --mic FILE` participants say the 32 sentences: the first 16 taking
        /// turns, the last 16 each starting 0.8 s before the one before has finished. A member of
        /// the room gets every utterance, attributed to whoever said it, overlapping or not: the
        /// transcriber listens to each participant's own track.
        @Test func threeSpeakersTakingTurnsThenOverlappingAreEachTranscribedAsThemselves() throws {
            let server = try RoomServerHarness()
            server.startWorker()
            defer { server.stopWorker() }
            let room = try server.makeRoom()
            let media = try TemporaryDirectory(prefix: "three-speakers")
            let sentences = SpokenConversation.sentences
            let turns = sentences.enumerated().map { (speaker: $0.offset % 3, text: $0.element) }
            let gaps = sentences.indices.map { $0 < 15 ? 1.2 : -0.8 }
            let (tracks, lines) = try SpokenConversation.layOut(turns, speakers: 3, gap: 1.2, gaps: gaps, lead: 2.0)
            for (index, track) in tracks.enumerated() { try SpokenConversation.writeWAV(track, to: media.file("speaker-\(index).wav")) }
            let spoken = Double(tracks[0].count) / 16_000
            let overlapping = lines.indices.filter { $0 > 0 && lines[$0].start < lines[$0 - 1].end }
            #expect(overlapping.count == 16, "\(overlapping.count) lines start before the one before ends")

            let job = try server.startJob(.transcription, room: room, timeout: 60)
            // A transcribed recording of the same room at the same time.
            try server.startWebhooks()
            let webhooks = try WebhookReceiver()
            let recording = try LiveRecordingTranscriptTests.startTranscribedRecording(server, room: room, webhookURL: webhooks.url, keepSpeakerAudio: false)
            let listener = try TranscriptListener(signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc", room: room, token: try server.token())
            defer { listener.close() }
            // Chromium on the join page, a viewer, gets the same lines.
            let chromium = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments())
            let page = try chromium.open(server.joinURL(room: room, token: try server.token(), name: "Chrome", mode: "RECV_ONLY"))
            let publishers = try (0..<3).map { index in
                try server.micPublisher(room: room, name: Self.names[index], wav: media.file("speaker-\(index).wav"), seconds: spoken,
                                        log: media.file("publish-\(index).log"))
            }
            for publisher in publishers { #expect(publisher.wait(timeout: spoken + 30) == .exited(0)) }
            _ = listener.wait(forLines: lines.count, seconds: 20)
            defer { print("transcriber log:\n" + server.attemptLog(job)) }
            try server.stopJob(job, timeout: 120)
            let recorded = try server.stopJob(recording, timeout: 180)

            // Each line goes to the sentence it is most like; a sentence is attributed when all
            // its lines are its speaker's.
            let received = listener.lines
            var heard = Array(repeating: [TranscriptListener.Heard](), count: lines.count)
            for item in received {
                let best = lines.indices.max { Self.similarity(item.line.text, lines[$0].text) < Self.similarity(item.line.text, lines[$1].text) }
                if let best, Self.similarity(item.line.text, lines[best].text) > 0.2 { heard[best].append(item) }
            }
            func attributed(_ indices: [Int]) -> Int {
                indices.filter { index in !heard[index].isEmpty && heard[index].allSatisfy { $0.line.name == Self.names[lines[index].speaker] } }.count
            }
            let inTurn = lines.indices.filter { !overlapping.contains($0) }
            let wer = WordErrorRate(pairs: zip(lines, heard).map { (reference: $0.text, hypothesis: $1.map(\.line.text).joined(separator: " ")) })
            let overlapWER = WordErrorRate(pairs: overlapping.map { (reference: lines[$0].text, hypothesis: heard[$0].map(\.line.text).joined(separator: " ")) })
            let latencies = received.map(\.latency).sorted()
            print("three live speakers: \(received.count) lines for \(lines.count) sentences, WER \(String(format: "%.1f", wer.rate * 100)) % "
                + "(overlapping ones \(String(format: "%.1f", overlapWER.rate * 100)) %); attributed \(attributed(inTurn))/\(inTurn.count) taking turns, "
                + "\(attributed(overlapping))/\(overlapping.count) overlapping; latency median "
                + "\(String(format: "%.2f", latencies.isEmpty ? 0 : latencies[latencies.count / 2])) s, worst \(String(format: "%.2f", latencies.last ?? 0)) s")
            for (line, got) in zip(lines, heard) where WordErrorRate(reference: line.text, hypothesis: got.map(\.line.text).joined(separator: " ")).errors > 0 {
                print("  said (\(Self.names[line.speaker])): \(line.text)\n  heard: \(got.map { "\($0.line.name): \($0.line.text)" })")
            }
            #expect(wer.rate <= 0.15)
            #expect(attributed(inTurn) == inTurn.count)
            #expect(attributed(overlapping) == overlapping.count)
            #expect(Set(received.map(\.line.name)) == Set(Self.names))
            // The join page got every line the listener did, by the same speakers.
            let inPage = try page.evaluate("JSON.stringify(window.revue.transcripts.map(t => [t.name, t.text]))") as? String ?? "[]"
            let pageLines = (try JSONSerialization.jsonObject(with: Data(inPage.utf8)) as? [[String]]) ?? []
            print("three live speakers: Chromium on the join page showed \(pageLines.count) lines")
            #expect(pageLines.map { $0.first ?? "" } == received.map(\.line.name), "\(pageLines.count) in the page, \(received.count) heard")
            #expect(pageLines.map { $0.last ?? "" } == received.map(\.line.text))
            // Overlapping utterances of different speakers are separate lines, at overlapping times.
            let overlappingLines = overlapping.compactMap { index in
                heard[index].first.flatMap { current in heard[index - 1].last.map { (previous: $0.line, current: current.line) } }
            }
            #expect(overlappingLines.filter { $0.current.start < $0.previous.end }.count >= overlapping.count - 2,
                    "\(overlappingLines.map { String(format: "%.2f<%.2f", $0.current.start, $0.previous.end) })")

            // The recording's transcript: the same sentences by the same speakers, overlapping ones included.
            #expect(recorded.transcription?.state == .stopped, "\(String(describing: recorded.transcription))")
            let part = try #require(recorded.parts.first { $0.kind == .transcript })
            let transcript = try JSONDecoder().decode(LiveRecordingTranscriptTests.TranscriptFile.self,
                                                      from: Data(contentsOf: URL(fileURLWithPath: server.storage.path + "/" + part.path + "/transcript.json")))
            var inFile = Array(repeating: [LiveRecordingTranscriptTests.TranscriptFile.Segment](), count: lines.count)
            for segment in transcript.segments {
                let best = lines.indices.max { Self.similarity(segment.text, lines[$0].text) < Self.similarity(segment.text, lines[$1].text) }
                if let best, Self.similarity(segment.text, lines[best].text) > 0.2 { inFile[best].append(segment) }
            }
            let fileAttributed = lines.indices.filter { index in
                !inFile[index].isEmpty && inFile[index].allSatisfy { $0.participantName == Self.names[lines[index].speaker] }
            }.count
            let fileWER = WordErrorRate(pairs: zip(lines, inFile).map { (reference: $0.text, hypothesis: $1.map(\.text).joined(separator: " ")) })
            // On the recording's clock the lines keep the gaps they were said with.
            let drift = zip(lines.indices.dropFirst(), lines.indices).compactMap { next, previous -> Double? in
                guard let a = inFile[previous].first, let b = inFile[next].first else { return nil }
                return (b.start - a.start) - (lines[next].start - lines[previous].start)
            }
            print("three speakers, recorded: \(transcript.segments.count) segments, WER \(String(format: "%.1f", fileWER.rate * 100)) %, "
                + "\(fileAttributed)/\(lines.count) attributed; start-to-start gaps vs as said: worst \(String(format: "%.2f", drift.map(abs).max() ?? 0)) s")
            #expect(fileWER.rate <= 0.15)
            #expect(fileAttributed == lines.count)
            #expect(drift.count >= lines.count - 3 && drift.allSatisfy { abs($0) <= 0.3 }, "\(drift)")
        }

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
                for worker in [first, second].compactMap({ $0 }) {
                    worker.signal(SIGKILL)
                    worker.wait()
                }
            }
            let sentences = Array(SpokenConversation.sentences.prefix(12))
            let turns = sentences.enumerated().map { (speaker: $0.offset % 2, text: $0.element) }
            let (tracks, lines) = try SpokenConversation.layOut(turns, speakers: 2, gap: 1.2, lead: 1.5)
            for (index, track) in tracks.enumerated() { try SpokenConversation.writeWAV(track, to: logs.file("speaker-\(index).wav")) }
            let spoken = Double(tracks[0].count) / 16_000
            let recording = try LiveRecordingTranscriptTests.startTranscribedRecording(server, room: room, webhookURL: webhooks.url, keepSpeakerAudio: false)
            defer {
                for attempt in 1...2 { print("attempt \(attempt) log:\n" + server.attemptLog(recording, attempt: attempt)) }
                for worker in ["worker-a", "worker-b"] { print("\(worker) log:\n" + ((try? String(contentsOfFile: logs.file(worker), encoding: .utf8)) ?? "none")) }
            }
            let publishers = try (0..<2).map { index in
                try server.micPublisher(room: room, name: Self.names[index], wav: logs.file("speaker-\(index).wav"), seconds: spoken)
            }
            for publisher in publishers { #expect(publisher.wait(timeout: spoken + 30) == .exited(0)) }

            // Stopped: worker-a writes the MP4, then starts transcribing it.
            let stop = try server.call("POST", "/v2/recordings/stop", .object(["roomId": .string(room)]))
            #expect(stop.status == 200, "\(stop.json.text)")
            let store = server.api.store
            var transcriber: Int32?
            let transcribing = JoinPageBrowserTests.wait(60) {
                guard (try? store.job(recording.id))?.transcription?.state == .started else { return false }
                transcriber = Self.child(of: first.pid, running: "transcribe")
                return transcriber != nil
            }
            let atKill = try store.job(recording.id)
            #expect(transcribing, "worker-a never transcribed: \(String(describing: atKill))")
            #expect(atKill?.parts.contains { $0.kind == .transcript } == false, "\(String(describing: atKill?.parts))")
            second = try server.startWorkerProcess("worker-b", log: logs.file("worker-b"))
            first.signal(SIGKILL)
            first.wait()
            // Its transcriber dies with it (PR_SET_PDEATHSIG): only the next holder writes the transcript.
            let orphanGone = JoinPageBrowserTests.wait(5) { transcriber.map { kill($0, 0) != 0 } ?? true }
            #expect(orphanGone, "worker-a's revue transcribe (pid \(String(describing: transcriber))) outlived it")

            // Until worker-b has made it, no transcript is listed, and nothing says it is done.
            var listedEarly: [String] = []
            var finished: Job?
            _ = JoinPageBrowserTests.wait(120) {
                guard let now = try? store.job(recording.id) else { return false }
                if now.state != .stopped, now.parts.contains(where: { $0.kind == .transcript }) || now.transcription?.state == .stopped {
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
            let transcript = try JSONDecoder().decode(LiveRecordingTranscriptTests.TranscriptFile.self,
                                                      from: Data(contentsOf: URL(fileURLWithPath: directory + "/transcript.json")))
            var attributed = 0
            for line in lines {
                let best = transcript.segments.max { Self.similarity($0.text, line.text) < Self.similarity($1.text, line.text) }
                if let best, Self.similarity(best.text, line.text) > 0.4, best.participantName == Self.names[line.speaker] { attributed += 1 }
            }
            print("transcript after a takeover: \(transcript.segments.count) segments, \(attributed)/\(lines.count) sentences found by their speaker")
            #expect(attributed >= lines.count - 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
                == ["transcript.json", "transcript.srt", "transcript.txt", "transcript.vtt"])
            #expect(JoinPageBrowserTests.wait(30) { webhooks.deliveries.contains { $0.type == "transcription-completed" } })
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

        static func similarity(_ a: String, _ b: String) -> Double {
            let words = { (text: String) in Set(text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)) }
            let (x, y) = (words(a), words(b))
            return x.isEmpty || y.isEmpty ? 0 : Double(x.intersection(y).count) / Double(max(x.count, y.count))
        }
    }
}
