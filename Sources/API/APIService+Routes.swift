import Foundation
import HTTP
import JobSpec

/// Every route of the REST API, in one table: what `respond` dispatches on, and what
/// docs/openapi.yaml must list (`OpenAPIDocumentTests` holds them together). The room server's
/// own routes are `RoomServer.routes`.
extension APIService {
    /// How a route is served: without a token, or with the caller's grant.
    enum Endpoint: Sendable {
        case open(@Sendable (APIService, HTTPRequest, [String: String]) throws -> HTTPResponse)
        case authenticated(@Sendable (APIService, HTTPRequest, [String: String], Authenticator.Grant) throws -> HTTPResponse)
    }

    static let router = HTTPRouter<Endpoint>(
        [
            (HTTPRoute("GET", "/healthz"), .open { _, _, _ in JSON.response(200, ["status": "ok"]) }),
            (HTTPRoute("GET", "/metrics"), .open { api, _, _ in try api.metrics() }),
            (HTTPRoute("GET", "/v2/openapi.json"), .open { _, _, _ in OpenAPIDocument.response() }),
            (HTTPRoute("GET", "/v2/public/rsa-public-key"), .open { api, request, _ in try api.publicKey(request) }),
            (HTTPRoute("GET", "/files/s/{expires}/{signature}/recordings/{jobId}/{fileName}"), .open { api, request, _ in api.file(request) }),
            (HTTPRoute("GET", "/files/s/{expires}/{signature}/hls/{jobId}/{part}/{fileName}"), .open { api, request, _ in api.file(request) }),
            // A recording part's transcript directory (`part-N.transcript/transcript.vtt`, …).
            (HTTPRoute("GET", "/files/s/{expires}/{signature}/recordings/{jobId}/{part}/{fileName}"), .open { api, request, _ in api.file(request) }),
            // A job's thumbnails (`config.thumbnails`: `latest.jpg`, `NNNNNN.jpg`).
            (HTTPRoute("GET", "/files/s/{expires}/{signature}/thumbnails/{jobId}/{fileName}"), .open { api, request, _ in api.file(request) }),
            // A capture (`POST /v2/hls/capture`: `ID.jpg`, `ID.png`).
            (HTTPRoute("GET", "/files/s/{expires}/{signature}/captures/{jobId}/{fileName}"), .open { api, request, _ in api.file(request) }),
            // A live transcription's transcript (`part-N.transcript/transcript.vtt`, `summary.md`, …).
            (HTTPRoute("GET", "/files/s/{expires}/{signature}/transcriptions/{jobId}/{part}/{fileName}"), .open { api, request, _ in api.file(request) }),
        ]
        + jobRoutes(.recording, "recordings", id: "recordingId") + jobRoutes(.hls, "hls", id: "hlsId") + jobRoutes(.livestream, "livestreams", id: "livestreamId")
        + jobRoutes(.transcription, "transcriptions", id: "transcriptionId") + consoleRoutes
        + [
            (HTTPRoute("GET", "/v2/hls/{roomId}/active"), .authenticated { api, _, path, grant in try api.activeHLS(roomID: path["roomId"] ?? "", grant: grant) }),
            (HTTPRoute("POST", "/v2/rooms"), .authenticated { api, request, _, grant in try api.createRoom(request, grant: grant) }),
            (HTTPRoute("GET", "/v2/rooms"), .authenticated { api, request, _, grant in try api.listRooms(request, grant: grant) }),
            (HTTPRoute("GET", "/v2/rooms/validate/{roomId}"),
             .authenticated { api, _, path, grant in try api.room(path["roomId"] ?? "", alsoCustom: true, grant: grant) }),
            (HTTPRoute("GET", "/v2/rooms/{roomId}"), .authenticated { api, _, path, grant in try api.room(path["roomId"] ?? "", alsoCustom: false, grant: grant) }),
            (HTTPRoute("POST", "/v2/rooms/deactivate"), .authenticated { api, request, _, grant in try api.deactivateRoom(request, grant: grant) }),
            (HTTPRoute("POST", "/v2/rooms/{roomId}"),
             .authenticated { api, request, path, grant in try api.setRoomStatus(path["roomId"] ?? "", request: request, grant: grant) }),
            (HTTPRoute("GET", "/v2/sessions"), .authenticated { api, request, _, grant in try api.listSessions(request, grant: grant) }),
            (HTTPRoute("POST", "/v2/sessions/end"), .authenticated { api, request, _, grant in try api.endSession(request, grant: grant) }),
            (HTTPRoute("POST", "/v2/sessions/participants/remove"), .authenticated { api, request, _, grant in try api.removeParticipant(request, grant: grant) }),
            (HTTPRoute("GET", "/v2/sessions/{sessionId}"), .authenticated { api, _, path, grant in try api.session(path["sessionId"] ?? "", grant: grant) }),
            (HTTPRoute("GET", "/v2/sessions/{sessionId}/participants"), .authenticated { api, request, path, grant in
                try api.participants(ofSession: path["sessionId"] ?? "", activeOnly: false, request: request, grant: grant)
            }),
            (HTTPRoute("GET", "/v2/sessions/{sessionId}/participants/active"), .authenticated { api, request, path, grant in
                try api.participants(ofSession: path["sessionId"] ?? "", activeOnly: true, request: request, grant: grant)
            }),
        ])

    /// The console (docs/CONSOLE.md) and what it reads beyond the platform's API.
    private static let consoleRoutes: [(HTTPRoute, Endpoint)] = [
        (HTTPRoute("GET", "/console"), .open { _, _, _ in ConsolePage.response() }),
        (HTTPRoute("GET", "/console/hls.js"), .open { _, _, _ in ConsolePage.hlsJS() }),
        (HTTPRoute("POST", "/v2/console/login"), .open { api, request, _ in try api.consoleLogin(request) }),
        // Served as a stream before the table is asked (`handler`); listed here for the document.
        (HTTPRoute("GET", "/v2/changes"), .open { api, _, _ in try api.changesAskedAsAnswer() }),
        (HTTPRoute("GET", "/v2/nodes"), .authenticated { api, _, _, grant in try api.nodes(grant: grant) }),
        (HTTPRoute("GET", "/v2/workers"), .authenticated { api, _, _, grant in try api.workers(grant: grant) }),
        (HTTPRoute("POST", "/v2/webhooks/{deliveryId}/retry"), .authenticated { api, _, path, grant in
            try api.retryWebhook(id: path["deliveryId"] ?? "", grant: grant)
        }),
    ]

    /// The REST API's routes, for the document's test.
    public static var routes: [HTTPRoute] { router.routes }

    /// Start, stop (and its alias end), list and get a kind of job; delete, except livestreams.
    private static func jobRoutes(_ kind: JobKind, _ collection: String, id: String) -> [(HTTPRoute, Endpoint)] {
        var routes: [(HTTPRoute, Endpoint)] = [
            (HTTPRoute("POST", "/v2/\(collection)/start"), .authenticated { api, request, _, grant in try api.start(kind, request: request, grant: grant) }),
            (HTTPRoute("POST", "/v2/\(collection)/stop"), .authenticated { api, request, _, grant in try api.stop(kind, request: request, grant: grant) }),
            (HTTPRoute("POST", "/v2/\(collection)/end"), .authenticated { api, request, _, grant in try api.stop(kind, request: request, grant: grant) }),
            (HTTPRoute("GET", "/v2/\(collection)"), .authenticated { api, request, _, grant in try api.list(kind, request: request, grant: grant) }),
            (HTTPRoute("GET", "/v2/\(collection)/{\(id)}"), .authenticated { api, _, path, grant in try api.job(kind, id: path[id] ?? "", grant: grant) }),
            (HTTPRoute("GET", "/v2/\(collection)/{\(id)}/events"), .authenticated { api, _, path, grant in try api.timeline(kind, id: path[id] ?? "", grant: grant) }),
        ]
        if kind == .recording || kind == .hls {
            routes.append((HTTPRoute("DELETE", "/v2/\(collection)/{\(id)}"),
                           .authenticated { api, _, path, grant in try api.delete(kind, id: path[id] ?? "", grant: grant) }))
        }
        // Controls on a running job (docs/JOBS.md): pause and resume a recording; the layout
        // of anything composited.
        if kind == .recording {
            routes += [
                (HTTPRoute("POST", "/v2/recordings/pause"), .authenticated { api, request, _, grant in try api.setPaused(true, request: request, grant: grant) }),
                (HTTPRoute("POST", "/v2/recordings/resume"), .authenticated { api, request, _, grant in try api.setPaused(false, request: request, grant: grant) }),
            ]
        }
        if kind == .recording || kind == .hls {
            routes.append((HTTPRoute("POST", "/v2/\(collection)/capture"),
                           .authenticated { api, request, _, grant in try api.capture(kind, request: request, grant: grant) }))
        }
        if kind == .livestream {
            routes += [
                (HTTPRoute("POST", "/v2/livestreams/{\(id)}/outputs"),
                 .authenticated { api, request, path, grant in try api.addDestination(id: path[id] ?? "", request: request, grant: grant) }),
                (HTTPRoute("DELETE", "/v2/livestreams/{\(id)}/outputs"),
                 .authenticated { api, request, path, grant in try api.removeDestination(id: path[id] ?? "", request: request, grant: grant) }),
            ]
        }
        if kind.writesMedia {
            routes.append((HTTPRoute("POST", "/v2/\(collection)/{\(id)}/layout"),
                           .authenticated { api, request, path, grant in try api.changeLayout(kind, id: path[id] ?? "", request: request, grant: grant) }))
        }
        return routes
    }

    func publicKey(_ request: HTTPRequest) throws -> HTTPResponse {
        let pem = try signer.publicKeyPEM()
        if request.header("accept")?.contains("pem") == true {
            return HTTPResponse(status: 200, contentType: "application/x-pem-file", body: Array(pem.utf8))
        }
        return JSON.response(200, ["publicKey": pem])
    }

    func file(_ request: HTTPRequest) -> HTTPResponse {
        files.serve(request, relativePath: FileServer.relativePath(of: request))
    }
}
