import Foundation
import Jobs

/// Checks and normalises a start request's `config` (the platform API's config table): each
/// field must be one of its values, and the SDK's spellings (`VIDEO_AND_AUDIO`, `MED`) are
/// accepted. The result is stored with the job and read by the worker.
enum JobConfig {
    static func normalise(_ value: Any?, kind: JobKind) throws(ServiceError) -> String {
        guard let value, !(value is NSNull) else { return "{}" }
        guard let config = value as? [String: Any] else { throw .startFailed(kind, "config must be an object") }
        var out: [String: Any] = [:]
        if let layout = config["layout"] {
            guard let fields = layout as? [String: Any] else { throw .startFailed(kind, "config.layout must be an object") }
            var normal: [String: Any] = [:]
            if let type = fields["type"] {
                normal["type"] = try pick(type, from: ["GRID", "SPOTLIGHT", "SIDEBAR"], field: "config.layout.type", kind: kind)
            }
            if let priority = fields["priority"] {
                normal["priority"] = try pick(priority, from: ["SPEAKER", "PIN"], field: "config.layout.priority", kind: kind)
            }
            if let size = fields["gridSize"] {
                let range = kind == .hls ? 1...25 : 1...4
                guard let number = (size as? NSNumber)?.intValue, (size as? NSNumber)?.doubleValue == Double(number), range.contains(number)
                else {
                    throw .startFailed(kind, "config.layout.gridSize must be a whole number from \(range.lowerBound) to \(range.upperBound) for \(kind.rawValue)")
                }
                normal["gridSize"] = number
            }
            out["layout"] = normal
        }
        if let theme = config["theme"] { out["theme"] = try pick(theme, from: ["DARK", "LIGHT", "DEFAULT"], field: "config.theme", kind: kind) }
        if let mode = config["mode"] {
            let spelled = (mode as? String).map { $0.uppercased() == "VIDEO_AND_AUDIO" ? "video-and-audio" : $0.lowercased() }
            out["mode"] = try pick(spelled as Any, from: ["video-and-audio", "audio"], field: "config.mode", kind: kind)
        }
        if let quality = config["quality"] {
            out["quality"] = try pick((quality as? String)?.lowercased() as Any, from: ["low", "med", "high"], field: "config.quality", kind: kind)
        }
        if let orientation = config["orientation"] {
            out["orientation"] = try pick((orientation as? String)?.lowercased() as Any, from: ["landscape", "portrait"],
                                          field: "config.orientation", kind: kind)
        }
        if let recording = config["recording"] {
            guard let fields = recording as? [String: Any] else { throw .startFailed(kind, "config.recording must be an object") }
            out["recording"] = ["enabled": (fields["enabled"] as? Bool) ?? false]
        }
        guard let data = try? JSONSerialization.data(withJSONObject: out, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func pick(_ value: Any, from allowed: [String], field: String, kind: JobKind) throws(ServiceError) -> String {
        guard let text = value as? String, let match = allowed.first(where: { $0.caseInsensitiveCompare(text) == .orderedSame }) else {
            throw .startFailed(kind, "\(field) must be one of \(allowed.joined(separator: ", "))")
        }
        return match
    }
}
