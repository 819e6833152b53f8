import Foundation
import Platform
import Speech
import TestSupport
import Testing

@testable import RevueSDK

/// Live transcription through the SDK, as the seed walks it: a moderator starts it, two
/// `revue publish --mic FILE` participants take turns saying sentences espeak-ng spoke, and
/// everyone in the room (this SDK listener and Chromium on the join page) gets each utterance
/// attributed to its speaker, with the states in order. When it stops, what it heard is the
/// job's transcript, summarized (the seed's `SummaryConfig`) by llama.cpp's server. With live
/// translation on, the listener gets each utterance in Spanish, then, from the server's
/// confirmation of `changeTranslationLanguage("ca")` on, in Catalan.
extension RevueSDKTests {
    @MainActor @Suite(.browser, .timeLimit(.minutes(10)), .oneRoomAtATime) struct LiveTranscriptionTests {
        static let names = ["Alice", "Bob"]

        @Test func everyoneGetsEachUtteranceAttributedToItsSpeaker() async throws {
            let server = try RoomServerHarness()
            let model = try LlamaServer()
            server.startWorker(summaries: model.endpoint)
            defer { server.stopWorker() }
            let roomID = try server.makeRoom()
            let media = try TemporaryDirectory(prefix: "live-speech")
            // All 32: a sample of espeak's sentences swings the word error rate by several points.
            let sentences = SpokenConversation.sentences
            let turns = sentences.enumerated().map { (speaker: $0.offset % 2, text: $0.element) }
            let (tracks, lines) = try SpokenConversation.layOut(turns, speakers: 2, gap: 1.2, lead: 2.0)
            for (index, track) in tracks.enumerated() { try SpokenConversation.writeWAV(track, to: media.file("speaker-\(index).wav")) }
            let spoken = Double(tracks[0].count) / 16_000

            let moderator = try server.token(permissions: [.allowJoin, .allowMod])
            let room = try VideoSDK.createRoom(roomId: roomID, token: moderator, participantName: "Listener", micEnabled: false, camEnabled: false,
                                               mode: .RECV_ONLY, signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc")
            let log = EventLog()
            room.addEventListener(log)
            try await room.join()
            let chromium = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments())
            let page = try chromium.open(server.joinURL(room: roomID, token: try server.token(), name: "Chrome", mode: "RECV_ONLY"))

            // 3073 before anything is sent: a modelConfig setting the engine does not take.
            await #expect(throws: VideoSDKError.ERROR_INVALID_PARAMETER) {
                try await room.startTranscription(config: TranscriptionConfig(modelConfig: ["beam": 5]))
            }
            let summary = SummaryConfig(enabled: true, prompt: "Write summary in sections like Title, Agenda, Speakers, Action Items, Outlines, Notes and Summary")
            // webhookURL hears each state change (the seed).
            try server.startWebhooks()
            let webhooks = try WebhookReceiver()
            try await room.startTranscription(config: TranscriptionConfig(webhookURL: webhooks.url, summary: summary, modelConfig: ["beamSize": 5]))
            #expect(await log.wait(for: "transcription TRANSCRIPTION_STARTED", timeout: 60), "\(log.events)")
            let job = try #require(try server.api.store.activeJob(kind: .transcription, roomID: roomID))
            // Live translation: on for the room (the transcription runs already), Spanish for this listener.
            try await room.startTranslation()
            #expect(await log.wait(for: "translation TRANSLATION_STARTED"), "\(log.events)")
            let unknown = await #expect(throws: VideoSDKError.self) { try await room.changeTranslationLanguage("xx") }
            #expect(unknown?.code == 3073 && unknown?.message.contains("es, gl") == true, "\(String(describing: unknown))")
            try await room.changeTranslationLanguage("es")
            #expect(await log.wait(for: "translation language es"), "\(log.events)")
            #expect(room.translationLanguage == "es")
            let again = await #expect(throws: VideoSDKError.self) { try await room.startTranscription() }
            #expect(again?.code == 4031, "\(String(describing: again))")

            let publishers = try (0..<2).map { index in
                try server.micPublisher(room: roomID, name: Self.names[index], wav: media.file("speaker-\(index).wav"), seconds: spoken,
                                        log: media.file("publish-\(index).log"))
            }
            // Halfway through, Catalan: what comes after the server's confirmation is in it.
            var beforeCatalan: Int?
            for publisher in publishers {
                while publisher.poll() == nil {
                    if beforeCatalan == nil && log.transcripts.count >= lines.count / 2 {
                        try await room.changeTranslationLanguage("ca")
                        #expect(await log.wait(for: "translation language ca"), "\(log.events)")
                        beforeCatalan = log.translations.count
                    }
                    try await Task.sleep(for: .milliseconds(200))
                }
            }
            // The last utterance's text comes within seconds of its end.
            let deadline = Date().addingTimeInterval(30)
            while log.transcripts.count < lines.count && Date() < deadline { try await Task.sleep(for: .milliseconds(200)) }
            let translated = Date().addingTimeInterval(15)
            while log.translations.count < log.transcripts.count - 1 && Date() < translated { try await Task.sleep(for: .milliseconds(200)) }
            try await room.stopTranslation()
            #expect(await log.wait(for: "translation TRANSLATION_STOPPED"), "\(log.events)")
            try await room.stopTranscription()
            #expect(await log.wait(for: "transcription TRANSCRIPTION_STOPPED", timeout: 120), "\(log.events)")
            let states = log.events.filter { $0.hasPrefix("transcription ") }
            #expect(states == ["transcription TRANSCRIPTION_STARTING", "transcription TRANSCRIPTION_STARTED",
                               "transcription TRANSCRIPTION_STOPPING", "transcription TRANSCRIPTION_STOPPED"], "\(states)")
            // Deliveries come in no set order (a `transcription-completed` may come before the
            // `-stopped`): each state's, whatever else.
            let hooked: Set = ["transcription-starting", "transcription-started", "transcription-stopping", "transcription-stopped"]
            #expect(await RevueSDKTests.waitUntil(30) { hooked.isSubset(of: Set(webhooks.deliveries.compactMap(\.type))) },
                    "the webhook heard \(webhooks.deliveries.compactMap(\.type))")

            // Each line goes to the sentence it is most like; each sentence's lines are by its speaker.
            let received = log.transcripts.map(\.line)
            let heard = SpokenConversation.sort(received, text: \.text, into: lines)
            let attributed = zip(lines, heard).filter { line, got in !got.isEmpty && got.allSatisfy { $0.participantName == Self.names[line.speaker] } }.count
            let wer = WordErrorRate(pairs: zip(lines, heard).map { (reference: $0.text, hypothesis: $1.map(\.text).joined(separator: " ")) })
            let latencies = log.transcripts.map { $0.arrived.timeIntervalSince($0.line.end) }.sorted()
            print("live transcription: \(received.count) lines for \(lines.count) sentences, WER \(String(format: "%.1f", wer.rate * 100)) %, "
                + "\(attributed)/\(lines.count) attributed; from the end of an utterance to the SDK: median "
                + "\(String(format: "%.2f", latencies.isEmpty ? 0 : latencies[latencies.count / 2])) s, worst \(String(format: "%.2f", latencies.last ?? 0)) s")
            for (line, got) in zip(lines, heard) where WordErrorRate(reference: line.text, hypothesis: got.map(\.text).joined(separator: " ")).errors > 0 {
                print("  said (\(Self.names[line.speaker])): \(line.text)\n  heard: \(got.map { "\($0.participantName): \($0.text)" })")
            }
            #expect(attributed == lines.count)
            #expect(wer.rate <= 0.15)
            #expect(log.transcriptionTexts.count == received.count && log.transcriptionTexts.allSatisfy { !$0.text.isEmpty })
            #expect(received.allSatisfy { $0.end >= $0.start })

            // A translation for each line, in the language chosen at the time, by the speaker.
            let translations = log.translations
            let switchedAt = beforeCatalan ?? 0
            print("live translation: \(translations.count) for \(received.count) lines, \(switchedAt) in es then \(translations.count - switchedAt) in ca; "
                + "e.g. \(translations.first.map { "\"\($0.text)\"" } ?? "none") / \(translations.last.map { "\"\($0.text)\"" } ?? "none")")
            #expect(translations.count >= received.count - 2, "\(translations.count) translations for \(received.count) lines")
            #expect(switchedAt > 0 && translations.prefix(switchedAt).allSatisfy { $0.language == "es" })
            #expect(translations.count > switchedAt && translations.dropFirst(switchedAt).allSatisfy { $0.language == "ca" })
            let speakers = Set(received.map(\.participantId))
            #expect(translations.allSatisfy { speakers.contains($0.participantId) && !$0.text.isEmpty })
            #expect(zip(translations, received).filter { $0.text == $1.text }.count <= 2, "translations are not the English")

            // Chromium on the join page got the same lines, with the speakers' names.
            let inPage = try page.evaluate("JSON.stringify(window.revue.transcripts.map(t => [t.name, t.text]))") as? String ?? "[]"
            let pageLines = (try JSONSerialization.jsonObject(with: Data(inPage.utf8)) as? [[String]]) ?? []
            #expect(pageLines.count == received.count, "\(pageLines.count) in the page, \(received.count) in the SDK")
            #expect(Set(pageLines.map { $0.first ?? "" }) == Set(Self.names), "\(pageLines)")

            // The job's transcript holds every line it sent, and its summary was made.
            let view = try server.call("GET", "/v2/transcriptions/\(job.idText)")
            let files = view.json["files"]?.arrayValue ?? []
            #expect(Set(files.compactMap { $0["format"]?.stringValue }) == ["json", "vtt", "srt", "txt", "summary"], "\(view.json.text)")
            #expect(view.json["summary"]?["state"]?.stringValue == "SUMMARY_MADE", "\(view.json.text)")
            let directory = server.storage.path + "/transcriptions/\(job.idText)/part-1.transcript"
            let transcript = try String(contentsOfFile: directory + "/transcript.txt", encoding: .utf8)
            #expect(transcript.split(separator: "\n").count == received.count, "\(transcript)")
            let summaryText = try String(contentsOfFile: directory + "/summary.md", encoding: .utf8)
            print("live transcript: \(received.count) lines; summary (\(model.model)): \(summaryText.prefix(160))")
            #expect(!summaryText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
            try await room.leave()
        }
    }
}
