import Foundation
import Jobs
import Platform
import Speech
import TestSupport
import Testing

@testable import RevueSDK

/// Live transcription with three speakers, the first half taking turns, the second overlapping,
/// heard by everyone in the room (an SDK participant and Chromium on the join page), while a
/// transcribed recording of the same room runs: the cases the two-speaker tests
/// (LiveTranscriptionTests, RoomServerTests.LiveRecordingTranscriptTests) do not reach.
extension RevueSDKTests {
    @MainActor @Suite(.browser, .timeLimit(.minutes(10)), .oneRoomAtATime) struct ThreeSpeakerTranscriptionTests {
        static let names = ["Alice", "Bob", "Carol"]

        /// Three `revue publish --mic FILE` participants say the 32 sentences: the first 16 taking
        /// turns, the last 16 each starting 0.8 s before the one before has finished. The SDK
        /// participant gets every utterance as `onTranscriptionText`, attributed to whoever said
        /// it, overlapping or not: the transcriber listens to each participant's own track.
        @Test func threeSpeakersTakingTurnsThenOverlappingAreEachTranscribedAsThemselves() async throws {
            let server = try RoomServerHarness()
            server.startWorker()
            defer { server.stopWorker() }
            let roomID = try server.makeRoom()
            let media = try TemporaryDirectory(prefix: "three-speakers")
            let sentences = SpokenConversation.sentences
            let turns = sentences.enumerated().map { (speaker: $0.offset % 3, text: $0.element) }
            let gaps = sentences.indices.map { $0 < 15 ? 1.2 : -0.8 }
            let (tracks, lines) = try SpokenConversation.layOut(turns, speakers: 3, gap: 1.2, gaps: gaps, lead: 2.0)
            for (index, track) in tracks.enumerated() { try SpokenConversation.writeWAV(track, to: media.file("speaker-\(index).wav")) }
            let spoken = Double(tracks[0].count) / 16_000
            let overlapping = lines.indices.filter { $0 > 0 && lines[$0].start < lines[$0 - 1].end }
            #expect(overlapping.count == 16, "\(overlapping.count) lines start before the one before ends")

            let job = try await RevueSDKTests.offMain { try server.startJob(.transcription, room: roomID, timeout: 60) }
            // A transcribed recording of the same room at the same time.
            try server.startWebhooks()
            let webhooks = try WebhookReceiver()
            let recording = try await RevueSDKTests.offMain {
                try server.startTranscribedRecording(room: roomID, webhookURL: webhooks.url, keepSpeakerAudio: false)
            }
            // The SDK participant, a listener (RECV_ONLY), and Chromium on the join page, a viewer.
            let room = try VideoSDK.createRoom(roomId: roomID, token: try server.token(), participantName: "Listener", micEnabled: false,
                                               camEnabled: false, mode: .RECV_ONLY, signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc")
            let log = EventLog()
            room.addEventListener(log)
            try await room.join()
            let chromium = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments())
            let page = try chromium.open(server.joinURL(room: roomID, token: try server.token(), name: "Chrome", mode: "RECV_ONLY"))
            let publishers = try (0..<3).map { index in
                try server.micPublisher(room: roomID, name: Self.names[index], wav: media.file("speaker-\(index).wav"), seconds: spoken,
                                        log: media.file("publish-\(index).log"))
            }
            for (index, publisher) in publishers.enumerated() {
                let failure = try await RevueSDKTests.offMain { RoomServerHarness.publisherFailure(publisher, timeout: spoken + 30, log: media.file("publish-\(index).log")) }
                #expect(failure == nil)
            }
            _ = await RevueSDKTests.waitUntil(20) { log.transcripts.count >= lines.count }
            defer { print("transcriber log:\n" + server.attemptLog(job)) }
            _ = try await RevueSDKTests.offMain { try server.stopJob(job, timeout: 120) }
            let recorded = try await RevueSDKTests.offMain { try server.stopJob(recording, timeout: 180) }

            // A sentence is attributed when all the lines most like it are its speaker's.
            let received = log.transcripts
            let heard = SpokenConversation.sort(received, text: \.line.text, into: lines)
            func attributed(_ indices: [Int]) -> Int {
                indices.filter { index in !heard[index].isEmpty && heard[index].allSatisfy { $0.line.participantName == Self.names[lines[index].speaker] } }.count
            }
            let inTurn = lines.indices.filter { !overlapping.contains($0) }
            let wer = WordErrorRate(pairs: zip(lines, heard).map { (reference: $0.text, hypothesis: $1.map(\.line.text).joined(separator: " ")) })
            let overlapWER = WordErrorRate(pairs: overlapping.map { (reference: lines[$0].text, hypothesis: heard[$0].map(\.line.text).joined(separator: " ")) })
            let latencies = received.map { $0.arrived.timeIntervalSince($0.line.end) }.sorted()
            print("three live speakers, SDK listener: \(received.count) lines for \(lines.count) sentences, WER \(String(format: "%.1f", wer.rate * 100)) % "
                + "(overlapping ones \(String(format: "%.1f", overlapWER.rate * 100)) %); attributed \(attributed(inTurn))/\(inTurn.count) taking turns, "
                + "\(attributed(overlapping))/\(overlapping.count) overlapping; from the end of an utterance to the SDK: median "
                + "\(String(format: "%.2f", latencies.isEmpty ? 0 : latencies[latencies.count / 2])) s, worst \(String(format: "%.2f", latencies.last ?? 0)) s")
            for (line, got) in zip(lines, heard) where WordErrorRate(reference: line.text, hypothesis: got.map(\.line.text).joined(separator: " ")).errors > 0 {
                print("  said (\(Self.names[line.speaker])): \(line.text)\n  heard: \(got.map { "\($0.line.participantName): \($0.line.text)" })")
            }
            #expect(wer.rate <= 0.15)
            #expect(attributed(inTurn) == inTurn.count)
            #expect(attributed(overlapping) == overlapping.count)
            #expect(Set(received.map(\.line.participantName)) == Set(Self.names))
            // The seed's own callback got each line too, with the speaker's id.
            #expect(log.transcriptionTexts.map(\.text) == received.map(\.line.text))
            #expect(log.transcriptionTexts.map(\.participantId) == received.map(\.line.participantId))
            // The join page got every line the SDK did, by the same speakers.
            let inPage = try page.evaluate("JSON.stringify(window.revue.transcripts.map(t => [t.name, t.text]))") as? String ?? "[]"
            let pageLines = (try JSONSerialization.jsonObject(with: Data(inPage.utf8)) as? [[String]]) ?? []
            print("three live speakers: Chromium on the join page showed \(pageLines.count) lines")
            #expect(pageLines.map { $0.first ?? "" } == received.map(\.line.participantName), "\(pageLines.count) in the page, \(received.count) in the SDK")
            #expect(pageLines.map { $0.last ?? "" } == received.map(\.line.text))
            // Overlapping utterances of different speakers are separate lines, at overlapping times.
            let overlappingLines = overlapping.compactMap { index in
                heard[index].first.flatMap { current in heard[index - 1].last.map { (previous: $0.line, current: current.line) } }
            }
            #expect(overlappingLines.filter { $0.current.start < $0.previous.end }.count >= overlapping.count - 2,
                    "\(overlappingLines.map { "\($0.current.start) < \($0.previous.end)" })")

            // The recording's transcript: the same sentences by the same speakers, overlapping ones included.
            #expect(recorded.transcription?.state == .stopped, "\(String(describing: recorded.transcription))")
            let part = try #require(recorded.parts.first { $0.kind == .transcript })
            let transcript = try JSONDecoder().decode(TranscriptFile.self,
                                                      from: Data(contentsOf: URL(fileURLWithPath: server.storage.path + "/" + part.path + "/transcript.json")))
            let inFile = SpokenConversation.sort(transcript.segments, text: \.text, into: lines)
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
            try await room.leave()
        }
    }
}
