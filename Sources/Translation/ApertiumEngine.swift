import Foundation
import Platform

/// Apertium (https://www.apertium.org), Debian's rule-based translator: English into Spanish,
/// Catalan, Galician and Esperanto with Debian's `apertium-eng-spa`, `apertium-eng-cat`,
/// `apertium-en-gl` and `apertium-eo-en`. Each translation is one `apertium -u MODE IN OUT` run
/// (about 0.25 s: its null-flush mode does not flush through every stage of the pipeline), with a
/// time limit. Fully offline; GPL, run as a separate program.
public struct ApertiumEngine: TranslationEngine {
    /// Language → Apertium mode, for the pairs Debian 12 has.
    public static let modes = ["es": "eng-spa", "ca": "eng-cat", "gl": "en-gl", "eo": "en-eo"]
    public static let timeout = 10.0

    public let executable: String
    public let languages: Set<String>
    public var name: String { "apertium" }
    private let modeOf: [String: String]

    /// The Apertium here and the languages its installed pairs give; nil when it is not installed.
    public static func discover(executable: String = "/usr/bin/apertium") -> ApertiumEngine? {
        guard FileManager.default.isExecutableFile(atPath: executable),
              let listed = try? Subprocess.run(executable, ["-l"]), listed.succeeded
        else { return nil }
        let installed = Set(listed.standardOutput.split(whereSeparator: \.isWhitespace).map(String.init))
        let modes = modes.filter { installed.contains($0.value) }
        guard !modes.isEmpty else { return nil }
        return ApertiumEngine(executable: executable, modes: modes)
    }

    init(executable: String, modes: [String: String]) {
        self.executable = executable
        modeOf = modes
        languages = Set(modes.keys)
    }

    public func translate(_ text: String, to language: String) throws(TranslationError) -> String {
        guard let mode = modeOf[language] else { throw TranslationError("apertium has no English to \(language) pair here") }
        let base = NSTemporaryDirectory() + "revue-apertium-\(UUID().uuidString)"
        let input = base + ".in", output = base + ".out", errors = base + ".err"
        defer { for path in [input, output, errors] { unlink(path) } }
        do {
            // One line: a line break would be a paragraph of its own to Apertium.
            try Data(text.split(whereSeparator: \.isNewline).joined(separator: " ").utf8).write(to: URL(fileURLWithPath: input))
        } catch {
            throw TranslationError("cannot write the text to translate: \(error.localizedDescription)")
        }
        let process: Subprocess
        do {
            process = try Subprocess(executable, ["-u", mode, input, output], standardOutput: .discard, standardError: .file(errors))
        } catch {
            throw TranslationError("apertium could not be started: \(error)")
        }
        guard let termination = process.wait(timeout: Self.timeout) else {
            process.signal(SIGKILL)
            process.wait()
            throw TranslationError("apertium took more than \(Int(Self.timeout)) s")
        }
        guard termination == .exited(0), let translated = try? String(contentsOfFile: output, encoding: .utf8) else {
            let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            throw TranslationError("apertium \(mode) ended with \(termination): \(said.suffix(300))")
        }
        // Apertium doubles spaces where it drops an unknown word's mark; one is enough.
        return translated.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
