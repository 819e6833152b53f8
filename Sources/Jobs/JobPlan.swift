import Foundation
import Outputs

/// How a job runs as `revue record` arguments: its outputs (a new part per attempt) and its
/// layout and encoding settings from `config`.
struct JobPlan {
    var arguments: [String] = []
    var parts: [JobPart] = []

    init(job: Job, storage: String) {
        let id = job.id.uuidString.lowercased()
        let config = (try? JSONSerialization.jsonObject(with: Data(job.config.utf8))) as? [String: Any] ?? [:]
        let layout = config["layout"] as? [String: Any] ?? [:]
        if let type = layout["type"] as? String { arguments += ["--layout", type] }
        if let priority = layout["priority"] as? String { arguments += ["--priority", priority] }
        if let grid = layout["gridSize"] as? Int { arguments += ["--grid-size", String(grid)] }
        if let theme = config["theme"] as? String { arguments += ["--theme", theme] }
        if let quality = config["quality"] as? String { arguments += ["--quality", quality] }
        if let orientation = config["orientation"] as? String { arguments += ["--orientation", orientation] }
        if let mode = config["mode"] as? String { arguments += ["--mode", mode] }
        let recordingEnabled = ((config["recording"] as? [String: Any])?["enabled"] as? Bool) ?? false
        func recording() {
            let path = "recordings/\(id)/part-\(job.attempts).mp4"
            arguments += ["--output", storage + "/" + path]
            parts.append(JobPart(attempt: job.attempts, path: path, status: .writing))
        }
        switch job.kind {
        case .recording:
            recording()
        case .hls:
            let path = "hls/\(id)/part-\(job.attempts)"
            arguments += ["--output", "hls:" + storage + "/" + path]
            parts.append(JobPart(attempt: job.attempts, path: path, status: .writing))
            if recordingEnabled { recording() }
        case .livestream:
            for output in job.outputs {
                arguments += ["--output", RTMPOutput.url(output.url, streamKey: output.streamKey)]
            }
            if recordingEnabled { recording() }
        }
    }
}
