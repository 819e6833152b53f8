import APIModels
import Foundation
import JobSpec
import Jobs
import Rooms

/// Jobs from inside a room: the SDK's `startRecording`, `startHls`, `startLivestream` and their
/// stops over signalling, the room's `autoStartConfig` when a session starts, and the stop of
/// every job when the session ends. The same validation and rules as the REST routes.
extension APIService: RoomJobs {
    public func start(_ kind: JobKind, roomID: String, options: JSONValue) throws {
        var body = options.objectValue ?? [:]
        body["roomId"] = .string(roomID)
        let request: JobRequest
        do {
            request = try JobRequest(validating: .object(body), kind: kind)
        } catch {
            throw ServiceError.spec(error, kind: kind)
        }
        // A participant names destinations only where the operator allows them (SSRF, and the
        // room's media sent to a server of a guest's choosing).
        for destination in request.destinations where !configuration.clientDestinations.allows(destination) {
            let shown = destination.split(separator: "?").first.map(String.init) ?? destination
            throw ServiceError.spec(SpecError("\(shown) is not a destination this server lets participants choose (an operator allows "
                + "destinations with --allow-destination)", category: kind == .livestream ? .livestreamConfig : .invalidRequest), kind: kind)
        }
        _ = try create(request)
    }

    public func stop(_ kind: JobKind, roomID: String) throws {
        _ = try store.requestStop(kind: kind, roomID: roomID)
    }

    public func sessionStarted(roomID: String, sessionID: String) throws {
        guard let auto = try rooms.room(roomID)?.autoStartConfig else { return }
        var requests: [JobRequest] = []
        if let recording = auto.recording {
            var request = JobRequest(kind: .recording, roomID: roomID, config: recording.config)
            request.awsDirPath = recording.awsDirPath
            requests.append(request)
        }
        if let hls = auto.hls { requests.append(JobRequest(kind: .hls, roomID: roomID, config: hls.config)) }
        for request in requests {
            do {
                let job = try create(request)
                logger.info("started by the room's autoStartConfig", ["roomId": .string(roomID), "sessionId": .string(sessionID),
                                                                      "jobId": .string(job.idText), "kind": .string(job.kind.rawValue)])
            } catch let error as ServiceError where error.code == ServiceError.alreadyActive(request.kind, roomID: roomID).code {
                continue  // one the backend started already
            }
        }
    }

    public func sessionEnded(roomID: String, sessionID: String) throws {
        for kind in JobKind.allCases {
            guard try store.activeJob(kind: kind, roomID: roomID) != nil else { continue }
            do {
                _ = try store.requestStop(kind: kind, roomID: roomID)
                logger.info("stopping: the session ended", ["roomId": .string(roomID), "sessionId": .string(sessionID), "kind": .string(kind.rawValue)])
            } catch let error as ServiceError where error.code == ServiceError.stopFailed(kind, "").code {
                continue  // it ended meanwhile
            }
        }
    }
}
