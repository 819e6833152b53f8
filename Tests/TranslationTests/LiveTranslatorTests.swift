import Foundation
import Synchronization
import Testing

@testable import Translation

/// The room server's translation queue: results reach the listeners of each language; a slow
/// engine costs the oldest lines (with a count), never the server's memory or thread; a failing
/// language does not stop the others.
@Suite struct LiveTranslatorTests {
    /// An engine that upper-cases, waits `delay` first, and fails for "xx": the timing and the
    /// failure are what this test needs, which a real engine cannot be made to do on demand.
    struct SlowUpperCase: TranslationEngine {
        var delay: Double
        var name: String { "upper" }
        var languages: Set<String> { ["up", "xx"] }
        func translate(_ text: String, to language: String) throws(TranslationError) -> String {
            Thread.sleep(forTimeInterval: delay)
            if language == "xx" { throw TranslationError("xx fails") }
            return text.uppercased()
        }
    }

    @Test func eachLanguagesListenersGetTheirTranslation() {
        let got = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let translator = LiveTranslator<Int, String>(engines: [SlowUpperCase(delay: 0)]) { line, language, text, listeners in
            got.withLock { $0.append("\(line) \(language) \(text) \(listeners.joined(separator: ","))") }
            done.signal()
        }
        defer { translator.stop() }
        #expect(translator.languages == ["up", "xx"])
        translator.submit(.init(line: 1, text: "hello", listeners: ["up": ["ann", "bob"], "xx": ["eve"], "zz": ["nobody"]]))
        #expect(done.wait(timeout: .now() + 5) == .success)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(got.withLock { $0 } == ["1 up HELLO ann,bob"])
    }

    @Test func aSlowEngineDropsTheOldestLinesNotMemory() {
        let delivered = Mutex<[Int]>([])
        let translator = LiveTranslator<Int, String>(engines: [SlowUpperCase(delay: 0.05)]) { line, _, _, _ in
            delivered.withLock { $0.append(line) }
        }
        defer { translator.stop() }
        for line in 0..<500 { translator.submit(.init(line: line, text: "x", listeners: ["up": ["ann"]])) }
        #expect(translator.dropped >= 500 - LiveTranslator<Int, String>.capacity - 2)
        let deadline = Date().addingTimeInterval(10)
        while delivered.withLock({ $0.last }) != 499 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        // The newest line made it; the ones kept came in order.
        let lines = delivered.withLock { $0 }
        #expect(lines.last == 499 && lines == lines.sorted())
    }
}
