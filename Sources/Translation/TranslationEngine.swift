/// A machine-translation engine (docs/TRANSCRIPTION.md, "Live translation"): English text in,
/// the same text in one of its languages out. One seam, so another engine (a neural model, a
/// LibreTranslate server) can be plugged in beside Apertium.
public protocol TranslationEngine: Sendable {
    /// A short name for logs ("apertium 3.8.3").
    var name: String { get }
    /// The languages it translates English into (BCP 47: `es`, `ca`).
    var languages: Set<String> { get }
    /// `text` (English) in `language`. Blocks; call it off any thread that must stay responsive.
    func translate(_ text: String, to language: String) throws(TranslationError) -> String
}

/// Why a translation was not made; `description` is safe to log.
public struct TranslationError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
