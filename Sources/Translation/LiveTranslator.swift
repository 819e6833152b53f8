import Foundation
import Log
import Synchronization

/// Translates the room's transcription lines for their listeners, on a thread of its own, so no
/// listener's language can slow the room server: a bounded queue (the oldest dropped, with a
/// warning, when it is full), one translation per line and language, and each result handed to
/// `deliver` with the listeners who asked for it.
public final class LiveTranslator<Line: Sendable, Listener: Sendable>: Sendable {
    public struct Request: Sendable {
        public var line: Line
        public var text: String
        /// Language → who gets it.
        public var listeners: [String: [Listener]]

        public init(line: Line, text: String, listeners: [String: [Listener]]) {
            self.line = line
            self.text = text
            self.listeners = listeners
        }
    }

    public static var capacity: Int { 64 }

    public let engines: [any TranslationEngine]
    private let deliver: @Sendable (Line, String, String, [Listener]) -> Void
    private let logger: Logger
    private let queue = Mutex<(requests: [Request], stopped: Bool, dropped: Int)>(([], false, 0))
    private let wake = DispatchSemaphore(value: 0)

    /// `deliver(line, language, translated text, listeners)` runs on the translator's thread.
    public init(engines: [any TranslationEngine], logger: Logger = Logger(label: "translation"),
                deliver: @escaping @Sendable (Line, String, String, [Listener]) -> Void)
    {
        self.engines = engines
        self.deliver = deliver
        self.logger = logger
        let thread = Thread { [self] in run() }
        thread.name = "translation"
        thread.start()
    }

    /// Every language some engine translates into.
    public var languages: Set<String> { engines.reduce(into: Set<String>()) { $0.formUnion($1.languages) } }

    /// Queues a line; never blocks.
    public func submit(_ request: Request) {
        let dropped = queue.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.requests.append(request)
            guard state.requests.count > Self.capacity else { return false }
            state.requests.removeFirst()
            state.dropped += 1
            return true
        }
        if dropped { logger.warning("translation is behind; the oldest line waiting was dropped") }
        wake.signal()
    }

    public func stop() {
        queue.withLock { $0.stopped = true }
        wake.signal()
    }

    /// Lines dropped so far for a full queue.
    public var dropped: Int { queue.withLock { $0.dropped } }

    private func run() {
        while true {
            let next = queue.withLock { state -> (Request?, Bool) in
                state.requests.isEmpty ? (nil, state.stopped) : (state.requests.removeFirst(), false)
            }
            guard let request = next.0 else {
                if next.1 { return }
                wake.wait()
                continue
            }
            for (language, listeners) in request.listeners.sorted(by: { $0.key < $1.key }) {
                guard let engine = engines.first(where: { $0.languages.contains(language) }) else { continue }
                do {
                    let translated = try engine.translate(request.text, to: language)
                    deliver(request.line, language, translated, listeners)
                } catch {
                    logger.error("a line could not be translated", ["language": .string(language), "error": .string(error.description)])
                }
            }
        }
    }
}
