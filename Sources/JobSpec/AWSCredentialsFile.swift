import Foundation

/// The shared credentials file S3 tools read (`~/.aws/credentials`, `AWS_SHARED_CREDENTIALS_FILE`):
/// INI sections of `name = value` lines.
///
/// ```
/// [default]
/// aws_access_key_id = AKIA…
/// aws_secret_access_key = …
/// ```
public enum AWSCredentialsFile {
    /// Each section's keys (lower-cased) and values. Comments (`#`, `;`) and lines that are
    /// neither a section nor `name = value` are skipped; a later repeat wins.
    public static func parse(_ text: String) -> [String: [String: String]] {
        var sections: [String: [String: String]] = [:]
        var current: String?
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]"), line.count >= 2 {
                var name = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                // The config file's spelling, `[profile name]`, names the same profile.
                if name.hasPrefix("profile ") { name = String(name.dropFirst(8)).trimmingCharacters(in: .whitespaces) }
                current = name
                continue
            }
            guard let current, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else { continue }
            sections[current, default: [:]][key] = value
        }
        return sections
    }
}
