import Foundation
import JobSpec

/// Times as the platform writes them: ISO 8601 in UTC with milliseconds, `2026-12-01T11:42:36.123Z`.
public enum APITime {
    public static func string(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        var whole = time_t(seconds.rounded(.down))
        let millis = min(999, Int(((seconds - Double(whole)) * 1000).rounded()))
        var parts = tm()
        gmtime_r(&whole, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), millis)
    }

    /// A time a caller gives: ISO 8601 with a zone (`2026-12-06T10:00:00Z`, fractions allowed,
    /// `+01:00` offsets), or a date alone (`2026-12-06`, its midnight in UTC). Nil otherwise.
    public static func parse(_ text: String) -> Date? {
        guard text.utf8.count <= 40 else { return nil }
        if text.utf8.count == 10 {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withFullDate, .withDashSeparatorInDate]
            return formatter.date(from: text)
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
