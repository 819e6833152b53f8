import APIModels
import HTTP
import Jobs
import OutboundHTTP

/// Actions on a live room that another node of the cluster hosts (docs/CLUSTER.md, "Doors"):
/// the node the REST call reached sends the same request, with the caller's own credentials, to
/// the room's node, and answers with that node's answer. Every node shares the API key and
/// secret, so the room's node checks the caller exactly as the first one did. A forwarded request
/// carries `Revue-Forwarded-By` and is never forwarded again: if the room moved meanwhile, the
/// caller is told to send it again (409).
extension APIService {
    static let forwardedHeader = "Revue-Forwarded-By"
    /// Nodes share a network: an action takes milliseconds, and a node silent this long is
    /// not coming back in time for the caller.
    static let forwardTimeout = 5.0

    /// The room node's answer to `request`, or nil when the room is not live on another node.
    /// - Throws: `roomNodeUnreachable` (502) when the room's node does not answer; `roomMoved`
    ///   (409) when the request was forwarded here and the room lives elsewhere now.
    func forwardedToRoomNode(_ request: HTTPRequest, roomID: String) throws -> HTTPResponse? {
        guard let host = liveRooms?.hostURL(roomID: roomID) else { return nil }
        // Forwarded here, but the room lives on yet another node (it moved meanwhile): acting
        // here would change only the database, and forwarding again could go round in circles.
        if let from = request.header(Self.forwardedHeader) {
            throw ServiceError.roomMoved("room \(roomID) moved to \(host) while the request came from \(from); send it again")
        }
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
