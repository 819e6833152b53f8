import Foundation

/// One formatted log line.
struct LogLine {
    let time: Date
    let level: LogLevel
    let label: String
    let message: String
    let fields: [String: LogValue]

    func formatted(_ format: LogOutput.Format) -> String {
        let stamp = LogLine.timestamp(time)
        switch format {
        case .json:
            var parts = [
                "\"time\":\(JSONText.quote(stamp))",
                "\"level\":\(JSONText.quote(level.name))",
                "\"label\":\(JSONText.quote(label))",
                "\"msg\":\(JSONText.quote(message))",
            ]
            for key in fields.keys.sorted() {
                guard let value = fields[key] else { continue }
                parts.append("\(JSONText.quote(key)):\(value.json)")
            }
            return "{" + parts.joined(separator: ",") + "}"
        case .text:
            var text = "\(stamp) \(level.name) \(label): \(message)"
            for key in fields.keys.sorted() {
                guard let value = fields[key] else { continue }
                text += " \(key)=\(value)"
            }
            return text
        }
    }

    /// RFC 3339 with milliseconds, in UTC.
    static func timestamp(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        var whole = time_t(seconds.rounded(.down))
        let millis = Int((seconds - Double(whole)) * 1000)
        var parts = tm()
        gmtime_r(&whole, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
            Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), millis)
    }
}

/// JSON string quoting (RFC 8259 §7), shared by the log formatter.
enum JSONText {
    static func quote(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += String(format: "\\u%04x", scalar.value)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
        return out
    }
}
