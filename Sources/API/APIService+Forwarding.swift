import HTTP
import Jobs

/// Actions on a live room that another node of the cluster hosts (docs/CLUSTER.md, "Doors"):
/// the node the REST call reached sends the same request, with the caller's own credentials, to
/// the room's node, and answers with that node's answer. Every node shares the API key and
/// secret, so the room's node checks the caller exactly as the first one did. A forwarded request
/// carries `Revue-Forwarded-By` and is never forwarded again: a room that moved meanwhile is acted
/// on where the request landed, in the database.
extension APIService {
    static let forwardedHeader = "Revue-Forwarded-By"
    /// Nodes share a network: an action takes milliseconds, and a node silent this long is
    /// not coming back in time for the caller.
    static let forwardTimeout = 5.0

    /// The room node's answer to `request`, or nil when the room is not live on another node
    /// (or the request was forwarded here already).
    /// - Throws: `roomNodeUnreachable` (502) when the room's node does not answer.
    func forwardedToRoomNode(_ request: HTTPRequest, roomID: String) throws -> HTTPResponse? {
        guard request.header(Self.forwardedHeader) == nil, let host = liveRooms?.hostURL(roomID: roomID) else { return nil }
        var headers = [("Content-Type", "application/json"), (Self.forwardedHeader, configuration.publicURL)]
        if let authorization = request.header("authorization") { headers.append(("Authorization", authorization)) }
        let answer: HTTPClient.Response
        do {
            answer = try HTTPClient.request(request.method, host + request.target, body: request.body, headers: headers, timeout: Self.forwardTimeout)
        } catch {
            logger.warning("the room's node did not answer a forwarded action",
                           ["roomId": .string(roomID), "node": .string(host), "path": .string(request.path), "error": .string(error.description)])
            throw ServiceError.roomNodeUnreachable("room \(roomID) lives on \(host), which did not answer (if it got the request, it may "
                + "still carry it out): \(error.description)")
        }
        logger.info("forwarded an action to the room's node",
                    ["roomId": .string(roomID), "node": .string(host), "path": .string(request.path), "status": .of(answer.status)])
        return HTTPResponse(status: answer.status, contentType: "application/json", body: answer.body)
    }
}
