import APIModels
import Foundation
import HTTP
import JobSpec

/// Controls on a running job (docs/JOBS.md, "Controls on a running job"): pause and resume a
/// recording, change a job's layout and theme. The API writes the wanted state to the job's
/// row and the worker running it hands it on (`JobStore.setPaused`, `changeLayout`), so these
/// work from any node of a cluster.
extension APIService {
    /// `POST /v2/recordings/pause` and `/resume` `{roomId}`: the room's recording in progress.
    func setPaused(_ paused: Bool, request: HTTPRequest, grant: Authenticator.Grant) throws -> HTTPResponse {
        let body = try JSON.body(request)
        guard let roomID = body["roomId"]?.stringValue, !roomID.isEmpty else { throw ServiceError.invalidParameter("roomId is required") }
        try Authenticator.check(grant, roomID: roomID)
        let job = try store.setPaused(paused, roomID: roomID)
        var response = JSON.response(200, paused ? "Recording paused successfully" : "Recording resumed successfully")
        response.headers.append(("Revue-Job-Id", job.idText))
        return response
    }

    /// `POST /v2/{recordings|hls|livestreams}/{id}/layout` `{layout: {type, priority, gridSize}, theme}`:
    /// the fields given change from the next picture on, the others stay; the job's view.
    func changeLayout(_ kind: JobKind, id: String, request: HTTPRequest, grant: Authenticator.Grant) throws -> HTTPResponse {
        let body = try JSON.body(request)
        guard let fields = body.objectValue else { throw ServiceError.invalidParameter("the body must be an object {layout, theme}") }
        let others = fields.keys.filter { $0 != "layout" && $0 != "theme" }.sorted()
        guard others.isEmpty else {
            throw ServiceError.invalidParameter("only layout and theme change on a running job, not \(others.joined(separator: ", "))")
        }
        guard fields["layout"] != nil || fields["theme"] != nil else { throw ServiceError.invalidParameter("give layout, theme or both") }
        let job = try findJob(id, kind: kind)
        try Authenticator.check(grant, roomID: job.roomID)
        // Checked as a start's config is; what is not given keeps the job's value.
        let given: RecordingConfig
        do {
            given = try RecordingConfig(validating: .object(fields), kind: kind)
        } catch {
            throw ServiceError.invalidParameter(error.message)
        }
        var layout = job.config.layout
        if let asked = fields["layout"]?.objectValue {
            let others = asked.keys.filter { !["type", "priority", "gridSize"].contains($0) }.sorted()
            guard others.isEmpty else { throw ServiceError.invalidParameter("layout has type, priority and gridSize, not \(others.joined(separator: ", "))") }
            if asked["type"] != nil { layout.type = given.layout.type }
            if asked["priority"] != nil { layout.priority = given.layout.priority }
            if asked["gridSize"] != nil { layout.gridSize = given.layout.gridSize }
        }
        let theme = fields["theme"] != nil ? given.theme : job.config.theme
        let changed = try store.changeLayout(jobID: job.id, kind: kind, layout: layout, theme: theme)
        return JSON.response(200, views.view(changed))
    }
}
