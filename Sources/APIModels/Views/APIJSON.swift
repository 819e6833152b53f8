import Foundation
import JobSpec

/// The one JSON encoding of every REST answer and webhook body: sorted keys, so bodies are
/// stable and signatures reproducible, and slashes left as they are.
public enum APIJSON {
    public static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding these models cannot fail: they hold only strings, numbers, bools and arrays.
        return (try? encoder.encode(value)).map(Array.init) ?? Array("null".utf8)
    }

    public static func text(_ value: some Encodable) -> String {
        String(decoding: encode(value), as: UTF8.self)
    }
}
