import Foundation
import JobSpec

/// How a layout reads in a job's events: `on screen at 12.30 s: Ann, Bob (screen share),
/// Carol (camera off)`, in the order of the tiles (the media time is the recording's).
public enum LayoutNote {
    public static let prefix = "on screen at "
    private static let suffixes = ["screenShare": " (screen share)", "cameraOff": " (camera off)"]

    public static func text(_ tiles: [JobRunEvent.Tile], at mediaTime: Double) -> String {
        let names = tiles.map { $0.name + (suffixes[$0.content] ?? "") }
        return prefix + String(format: "%.2f s: ", mediaTime) + (names.isEmpty ? "nobody" : names.joined(separator: ", "))
    }

    /// A note read back: its media time and its tiles' names and contents (`camera`,
    /// `cameraOff`, `screenShare`), or nil for another detail. Names with ", " in them do not
    /// read back whole; this is for people and tests, not a format to parse elsewhere.
    public static func parse(_ detail: String) -> (at: Double, tiles: [(name: String, content: String)])? {
        guard let start = detail.range(of: prefix), let unit = detail[start.upperBound...].range(of: " s: "),
              let at = Double(detail[start.upperBound..<unit.lowerBound]) else { return nil }
        let list = detail[unit.upperBound...]
        guard list != "nobody" else { return (at, []) }
        return (at, list.components(separatedBy: ", ").map { name in
            for (content, suffix) in suffixes where name.hasSuffix(suffix) { return (String(name.dropLast(suffix.count)), content) }
            return (name, "camera")
        })
    }
}
