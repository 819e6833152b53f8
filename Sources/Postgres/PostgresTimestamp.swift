import Foundation

/// Reads and writes timestamptz text. Connections set `TimeZone` to UTC and `DateStyle` to ISO,
/// so the server writes `2026-11-29 14:53:55.123456+00`.
enum PostgresTimestamp {
    static func format(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        var whole = time_t(seconds.rounded(.down))
        let micros = Int(((seconds - Double(whole)) * 1_000_000).rounded())
        if micros >= 1_000_000 { whole += 1 }
        var parts = tm()
        gmtime_r(&whole, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ",
            Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), micros % 1_000_000)
    }

    /// Parses `YYYY-MM-DD HH:MM:SS[.ffffff][+HH[:MM]|-HH[:MM]|Z]`; nil for anything else.
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for _ in 0..<digits {
                let byte = bytes[index]
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
                index += 1
            }
            return value
        }
        func expect(_ characters: [UInt8]) -> Bool {
            guard index < bytes.count, characters.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect([45]), let month = number(2), expect([45]), let day = number(2),
              expect([32, 84]), let hour = number(2), expect([58]), let minute = number(2), expect([58]),
              let second = number(2)
        else { return nil }
        var fraction = 0.0
        if index < bytes.count && bytes[index] == 46 {
            index += 1
            var scale = 0.1
            var sawDigit = false
            while index < bytes.count, bytes[index] >= 48 && bytes[index] <= 57 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
                sawDigit = true
            }
            guard sawDigit else { return nil }
        }
        var offsetSeconds = 0
        if index < bytes.count {
            if bytes[index] == 90 { // Z
                index += 1
            } else {
                guard bytes[index] == 43 || bytes[index] == 45 else { return nil }
                let sign = bytes[index] == 45 ? -1 : 1
                index += 1
                guard let offsetHours = number(2) else { return nil }
                var offsetMinutes = 0
                if index < bytes.count {
                    if bytes[index] == 58 { index += 1 }
                    guard let minutes = number(2) else { return nil }
                    offsetMinutes = minutes
                }
                offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
            }
        }
        guard index == bytes.count, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
              second < 61
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let epoch = timegm(&parts)
        return Date(timeIntervalSince1970: Double(epoch) - Double(offsetSeconds) + fraction)
    }
}
