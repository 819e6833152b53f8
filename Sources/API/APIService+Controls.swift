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

extension APIService {
    /// How long a capture request waits for the running job to write the picture.
    static let captureWait = 10.0

    /// `POST /v2/hls/capture` and `/v2/recordings/capture` `{roomId, width, height, format}`:
    /// the composite's next picture as JPEG (`jpg`, the default) or PNG, written by the job's
    /// run and answered once it is there, with a signed URL (docs/JOBS.md, "Captures").
    func capture(_ kind: JobKind, request: HTTPRequest, grant: Authenticator.Grant) throws -> HTTPResponse {
        let body = try JSON.body(request)
        guard body.objectValue != nil else { throw ServiceError.invalidParameter("the body must be an object {roomId, width, height, format}") }
        guard let roomID = body["roomId"]?.stringValue, !roomID.isEmpty else { throw ServiceError.invalidParameter("roomId is required") }
        if let time = body["time"], !time.isNull {
            throw ServiceError.invalidParameter("time is not supported: a capture is the composite's picture now (leave time out)")
        }
        func side(_ name: String) throws -> Int? {
            guard let value = body[name], !value.isNull else { return nil }
            guard let number = value.integerValue, (16...CaptureRequest.largestSide).contains(number) else {
                throw ServiceError.invalidParameter("\(name) must be a whole number of pixels from 16 to \(CaptureRequest.largestSide)")
            }
            return number
        }
        let width = try side("width"), height = try side("height")
        let format: CaptureRequest.Format
        switch body["format"].flatMap({ $0.isNull ? nil : $0 }) {
        case nil: format = .jpg
        case let value?:
            switch value.stringValue?.lowercased() {
            case "jpg", "jpeg": format = .jpg
            case "png": format = .png
            default: throw ServiceError.invalidParameter("format must be jpg or png")
            }
        }
        try Authenticator.check(grant, roomID: roomID)
        let (job, capture) = try store.requestCapture(kind: kind, roomID: roomID, width: width, height: height, format: format)
        let relative = CaptureRequest.directory(job: job.idText) + "/" + capture.fileName
        let path = configuration.storage + "/" + relative
        let deadline = Date().addingTimeInterval(Self.captureWait)
        var bytes: [UInt8]?
        while Date() < deadline {
            if let data = FileManager.default.contents(atPath: path) {
                bytes = Array(data)
                break
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard let bytes, let size = StillPictureSize.of(bytes) else {
            throw ServiceError.captureFailed("the \(kind == .hls ? "HLS stream" : kind.rawValue) of room \(roomID) gave no picture within \(Int(Self.captureWait)) s")
        }
        var response = JSON.response(200, CaptureView(
            message: "Capture taken successfully", roomId: roomID,
            meta: .init(createdAt: APITime.string(Date(timeIntervalSince1970: capture.requestedAt)), width: size.width, height: size.height,
                        format: format.rawValue),
            filePath: relative, fileSize: bytes.count, fileName: capture.fileName, fileUrl: configuration.urls.capture(capture, of: job)))
        response.headers.append(("Revue-Job-Id", job.idText))
        return response
    }
}

extension APIService {
    /// `POST /v2/livestreams/{id}/outputs` `{url, streamKey}`: a new destination, streamed to
    /// from the next keyframe; the livestream.
    func addDestination(id: String, request: HTTPRequest, grant: Authenticator.Grant) throws -> HTTPResponse {
        let body = try JSON.body(request)
        let destination: LivestreamOutput
        do {
            destination = try LivestreamOutput.validated(body, field: nil)
        } catch {
            throw ServiceError.invalidLivestreamConfig(error.message)
        }
        let job = try findJob(id, kind: .livestream)
        try Authenticator.check(grant, roomID: job.roomID)
        return JSON.response(200, views.view(try store.changeDestinations(jobID: job.id, adding: destination)))
    }

    /// `DELETE /v2/livestreams/{id}/outputs?url=URL[&streamKey=KEY]`: the destination of that
    /// `url` (as the livestream's view lists it; and key, when several share it) is no longer
    /// streamed to; the livestream.
    func removeDestination(id: String, request: HTTPRequest, grant: Authenticator.Grant) throws -> HTTPResponse {
        guard let url = request.query["url"], !url.isEmpty else { throw ServiceError.invalidParameter("url is required: the destination's URL, as the livestream lists it") }
        let job = try findJob(id, kind: .livestream)
        try Authenticator.check(grant, roomID: job.roomID)
        return JSON.response(200, views.view(try store.changeDestinations(jobID: job.id, removing: url, streamKey: request.query["streamKey"])))
    }
}
