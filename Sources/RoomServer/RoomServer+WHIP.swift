import Foundation
import HTTP
import JobSpec
import Jobs
import Log
import Net
import Postgres
import Rooms
import SDP
import Signaling
import Synchronization
import Transport
import WebSocket

/// WHIP (RFC 9725): ingest sessions over HTTP.
extension RoomServer {
    func whipPublish(_ request: HTTPRequest, roomID: String) -> HTTPResponse {
        guard request.header("content-type")?.lowercased().hasPrefix("application/sdp") == true else {
            return WHIPSessions.error(415, code: 3073, name: "ERROR_INVALID_PARAMETER", "a WHIP offer is application/sdp")
        }
        guard let token = request.header("authorization"), !token.isEmpty else {
            return WHIPSessions.error(401, code: 4025, name: "UNAUTHORIZED_REQUEST", "the Authorization header with a Bearer token is missing")
        }
        let name = request.query["name"].flatMap { $0.isEmpty ? nil : $0 } ?? "WHIP"
        let claims = verifier.verify(token, now: Date().timeIntervalSince1970)
        // The room's row is read only for a good token.
        var roomSettings: RoomSettings?
        if case .success = claims { roomSettings = (try? rooms.room(roomID, alsoCustom: true)).flatMap { $0 }.map(RoomSettings.init(room:)) }
        let settings = roomSettings
        // In a cluster, a room placed on another node is published to there (307).
        if let settings, !settings.disabled, !settings.deactivated, let redirect = placementRedirect(request, roomID: settings.id, place: true) {
            return redirect
        }
        let connection = whip.reserve()
        let joinRequest = JoinRequest(token: token, roomID: roomID, name: name, mode: .sendAndReceive)
        let result: Result<(participantID: String, sdp: String), WHIPSessions.Refusal>
        do {
            // First the join, judged by the registry with its codes; then the offer, read here on
            // the HTTP thread within the publisher's limits; then, back on the media loop, only
            // the answer.
            let joined: Result<LiveParticipant, WHIPSessions.Refusal> = try rtc.loop.sync { [self] in
                perform(registry.join(connection: connection, request: joinRequest, requestID: nil, claims: claims, room: settings,
                                      now: Date().timeIntervalSince1970))
                if let refusal = whip.refusal(of: connection) { return .failure(refusal) }
                guard let participant = registry.participant(connection: connection) else {
                    perform(registry.disconnected(connection: connection, now: Date().timeIntervalSince1970))
                    return .failure(.init(status: 403, code: 4008, name: "INVALID_PERMISSIONS", message: "the token cannot publish here"))
                }
                return .success(participant)
            }
            switch joined {
            case .failure(let refusal):
                // Placed for a publisher the registry refused: the placement goes again.
                if let settings { releasePlacementIfUnused(settings.id) }
                result = .failure(refusal)
            case .success(let participant):
                let offer = MediaPlane.parseOffer(String(decoding: request.body, as: UTF8.self))
                result = try rtc.loop.sync { [self] in
                    switch offer.flatMap({ media.answerWHIP(roomID: participant.roomID, participantID: participant.participantID,
                                                            connection: connection, offer: $0, now: EventLoop.now()) }) {
                    case .success(let answer):
                        // A WHIP client has no signalling to say what it sends: its offer says it.
                        let state = MediaState(mic: answer.contains("m=audio"), webcam: answer.contains("m=video"), screenShare: false)
                        perform(registry.receive(ClientEnvelope(.mediaState(state)), from: connection, now: Date().timeIntervalSince1970))
                        return .success((participant.participantID, answer))
                    case .failure(let error):
                        perform(registry.disconnected(connection: connection, now: Date().timeIntervalSince1970))
                        return .failure(.init(status: 400, code: 3073, name: "ERROR_INVALID_PARAMETER", message: error.message))
                    }
                }
            }
        } catch {
            // The loop did not answer in time: whatever it still does for this join is undone.
            rtc.loop.post { [self] in perform(registry.disconnected(connection: connection, now: Date().timeIntervalSince1970)) }
            whip.release(connection)
            return WHIPSessions.error(503, code: 4000, name: "UNKNOWN_ERROR", "the room server is busy or stopping; try again")
        }
        switch result {
        case .failure(let refusal):
            whip.release(connection)
            return WHIPSessions.error(refusal.status, code: refusal.code, name: refusal.name, refusal.message)
        case .success(let (participantID, answer)):
            let resource = whip.register(connection, roomID: roomID, participantID: participantID, token: token)
            var response = HTTPResponse(status: 201, contentType: "application/sdp", body: Array(answer.utf8))
            response.headers.append(("Location", "/v2/rooms/\(roomID)/whip/\(resource)"))
            response.headers.append(("ETag", "\"\(resource)\""))
            logger.info("WHIP publisher joined", ["roomId": .string(roomID), "participantId": .string(participantID)])
            return response
        }
    }

    func whipDelete(_ request: HTTPRequest, roomID: String, resource: String) -> HTTPResponse {
        // Only the token that made it may end it; a session of another room is not there.
        let connection: ConnectionID
        switch whip.owner(of: resource, roomID: roomID, token: request.header("authorization")) {
        case .notFound:
            return WHIPSessions.error(404, code: 4000, name: "NOT_FOUND", "no WHIP session \(resource.prefix(64)) in room \(roomID)")
        case .otherToken:
            return WHIPSessions.error(403, code: 4008, name: "INVALID_PERMISSIONS", "only the token that started a WHIP session can end it")
        case .owner(let owner):
            connection = owner
        }
        _ = try? rtc.loop.sync { [self] in perform(registry.disconnected(connection: connection, now: Date().timeIntervalSince1970)) }
        whip.release(connection)
        return HTTPResponse(status: 200, contentType: "text/plain", body: [])
    }
}
