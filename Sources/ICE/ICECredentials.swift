/// An ICE username fragment and password (RFC 8445 §5.3, SDP syntax RFC 8839 §5.4).
///
/// Both are `ice-char`s, `[A-Za-z0-9+/]`. The ufrag needs at least 24 bits of randomness (4
/// characters) and the password 128 bits (22 characters); both may be up to 256 characters.
/// The same pair goes in every m-section of a bundled session (checklist item 2).
public struct ICECredentials: Hashable, Sendable {
    /// The username fragment: the receiver's half of every check's USERNAME.
    public var ufrag: String
    /// The password: the key of MESSAGE-INTEGRITY on checks sent *to* this agent.
    public var pwd: String

    /// Credentials from their parts (from an SDP `a=ice-ufrag`/`a=ice-pwd`, for example).
    public init(ufrag: String, pwd: String) {
        self.ufrag = ufrag
        self.pwd = pwd
    }

    /// The 64 `ice-char`s.
    static let characters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Fresh credentials from the system's secure generator: an 8-character ufrag (48 bits, so a
    /// server can route new addresses by it without collisions) and a 24-character password
    /// (144 bits), as Chromium's lengths for the password.
    public static func random() -> ICECredentials {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// Fresh credentials from `generator`; pass a seeded one only in tests.
    public static func random(using generator: inout some RandomNumberGenerator) -> ICECredentials {
        func text(_ count: Int) -> String {
            // 64 characters: six random bits pick one without bias.
            String(decoding: (0..<count).map { _ in characters[Int(generator.next() & 63)] }, as: UTF8.self)
        }
        return ICECredentials(ufrag: text(8), pwd: text(24))
    }

    /// True when both fields have the lengths and characters RFC 8839 §5.4 allows.
    public var isValid: Bool {
        func valid(_ text: String, minimum: Int) -> Bool {
            (minimum...256).contains(text.utf8.count) && text.utf8.allSatisfy { Self.characters.contains($0) }
        }
        return valid(ufrag, minimum: 4) && valid(pwd, minimum: 22)
    }
}
