import JobSpec
import Rooms
import Signaling
import Testing

/// The registry's side of live translation: on and off for everyone, each listener's language
/// confirmed to them, and each transcription line turned into one translation request per
/// language chosen, for those who chose it.
@Suite struct TranslationStateTests {
    static func harness() -> RoomHarness {
        var harness = RoomHarness()
        harness.registry.translationLanguages = ["es", "ca"]
        return harness
    }

    @Test func listenersGetTheLanguageTheyChose() {
        var harness = Self.harness()
        let ada = harness.join("ada", [.allowJoin, .allowMod])
        let bob = harness.join("bob")
        let cid = harness.join("cid")
        harness.clear()
        harness.send(.startTranslation(options: .object(["modelId": .string("tiny.en"), "other": .bool(true)])), from: ada)
        // Everyone is told; no transcription runs, so one is started with the transcription's options.
        for connection in [ada, bob, cid] { #expect(harness.take(connection).contains(.translationStateChanged(status: "TRANSLATION_STARTED"))) }
        let started = harness.last.compactMap { if case .job(let command) = $0 { command } else { nil } }
        #expect(started == [.start(.transcription, roomID: "room-1", options: .object(["modelId": .string("tiny.en")]), connection: ada,
                                   requestID: .string("r"))])

        harness.send(.changeTranslationLanguage(language: "fr"), from: bob)
        #expect(harness.errorCode(bob) == 3073)
        harness.send(.changeTranslationLanguage(language: "es"), from: bob)
        #expect(harness.take(bob) == [.ack, .translationLanguageChanged(language: "es")])
        harness.send(.changeTranslationLanguage(language: "ca"), from: cid)
        harness.send(.changeTranslationLanguage(language: "en"), from: ada)

        // A line from the transcriber: everyone has it, and Bob and Cid each in their language.
        let transcriber = RecorderAndJobTests.joinRecorder(&harness)
        harness.clear()
        let line = TranscriptionLine(participantID: "ada", name: "Ada", text: "Hello", start: 1, end: 2)
        harness.send(.transcriptionText(line), from: transcriber, id: nil)
        let requests = harness.last.compactMap { if case .translate(_, let line, let listeners) = $0 { (line, listeners) } else { nil } }
        #expect(requests.count == 1 && requests.first?.0 == line)
        #expect(requests.first?.1 == ["es": [bob], "ca": [cid]])

        // Off: told to everyone, and lines go untranslated.
        harness.send(.stopTranslation, from: ada)
        #expect(harness.take(cid).contains(.translationStateChanged(status: "TRANSLATION_STOPPED")))
        harness.send(.transcriptionText(line), from: transcriber, id: nil)
        #expect(!harness.last.contains { if case .translate = $0 { true } else { false } })
    }

    @Test func oneWhoJoinsWhileItIsOnIsTold() {
        var harness = Self.harness()
        let ada = harness.join("ada", [.allowJoin, .allowMod])
        harness.send(.startTranslation(options: .object([:])), from: ada)
        let bob = harness.join("bob")
        #expect(harness.take(bob).contains(.translationStateChanged(status: "TRANSLATION_STARTED")))
    }

    /// Rooms let only moderators start jobs by default (`participantJobs: moderators`).
    @Test func withoutThePermissionItIsRefused() {
        var harness = Self.harness()
        let ada = harness.join("ada", [.allowJoin, .allowMod])
        let bob = harness.join("bob")
        harness.clear()
        harness.send(.startTranslation(options: .object([:])), from: bob)
        #expect(harness.errorCode(bob) == 4031)
        #expect(!harness.take(ada).contains(.translationStateChanged(status: "TRANSLATION_STARTED")))
    }
}
