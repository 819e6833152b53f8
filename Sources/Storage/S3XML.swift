import Foundation

/// Reads the few things Revue needs from S3's XML answers (`<UploadId>`, `<ETag>`, `<Code>`,
/// `<Message>`) without an XML library: the text of the first element with a given name, with
/// the five predefined entities and numeric references decoded. Answers are untrusted: anything
/// malformed is simply "not found".
public enum S3XML {
    public static func firstText(of element: String, in body: [UInt8]) -> String? {
        let text = String(decoding: body.prefix(1_048_576), as: UTF8.self)
        let open = "<\(element)>", close = "</\(element)>"
        guard let start = text.range(of: open), let end = text.range(of: close, range: start.upperBound..<text.endIndex) else { return nil }
        return decodeEntities(String(text[start.upperBound..<end.lowerBound]))
    }

    /// `&lt; &gt; &amp; &quot; &apos;`, `&#34;` and `&#x22;`; an unknown or broken reference is kept as written.
    public static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            out += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            guard let semicolon = after.prefix(12).firstIndex(of: ";") else {
                out.append("&")
                rest = after
                continue
            }
            let name = after[..<semicolon]
            var decoded: String?
            switch name {
            case "lt": decoded = "<"
            case "gt": decoded = ">"
            case "amp": decoded = "&"
            case "quot": decoded = "\""
            case "apos": decoded = "'"
            default:
                if name.hasPrefix("#x") || name.hasPrefix("#X"), let value = UInt32(name.dropFirst(2), radix: 16), let scalar = Unicode.Scalar(value) {
                    decoded = String(Character(scalar))
                } else if name.hasPrefix("#"), let value = UInt32(name.dropFirst()), let scalar = Unicode.Scalar(value) {
                    decoded = String(Character(scalar))
                }
            }
            if let decoded {
                out += decoded
                rest = after[after.index(after: semicolon)...]
            } else {
                out.append("&")
                rest = after
            }
        }
        return out + rest
    }

    /// Escapes text for an element's content (`&`, `<`, `>`, quotes).
    public static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
