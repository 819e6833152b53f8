import Foundation
import JobSpec
import Postgres
import TestSupport
import Testing

/// A per-participant recording as a job (`config.mode: "tracks"`, issue 26 item 5), through the
/// REST API, a worker and PostgreSQL on the example fixture room: the recording's file is the
/// manifest at a signed URL, each track file opens under the same signature, and what the mode
/// has not (a layout, a pause, a capture, a presigned upload) is refused with a clear error.
/// A worker killed mid-recording leaves files another worker finishes before it goes on.
@Suite(.serialized, .live, .timeLimit(.minutes(10))) struct TrackRecordingJobTests {
    @Test func aTracksRecordingServesItsManifestAndFiles() throws {
        let cluster = try ServiceCluster(rooms: ["tracks-room"])
        try cluster.startAPI()
        _ = try cluster.startWorker("worker-tracks", maxJobs: 1)

        // What this mode refuses at the start: each names the field.
        let refusals: [([String: Any], String)] = [
            (["roomId": "tracks-room", "config": ["mode": "tracks", "layout": ["type": "GRID"]]], "config.layout does not apply"),
            (["roomId": "tracks-room", "config": ["mode": "tracks"], "preSignedUrl": "https://bucket.example/put"], "preSignedUrl takes one file"),
        ]
        for (body, message) in refusals {
            let refused = try cluster.call("POST", "/v2/recordings/start", body)
            #expect(refused.0 == 400 && "\(refused.1 ?? [:])".contains(message), "\(body): \(refused)")
        }
        let hls = try cluster.call("POST", "/v2/hls/start", ["roomId": "tracks-room", "config": ["mode": "tracks"]])
        #expect(hls.0 == 400 && "\(hls.1 ?? [:])".contains("is for recordings"), "\(hls)")

        let started = try cluster.call("POST", "/v2/recordings/start", ["roomId": "tracks-room", "config": ["mode": "tracks"]])
        #expect(started.0 == 200, "\(started)")
        let id = try #require(try cluster.jobs().first.map { try $0.decode("id", as: UUID.self) })
        let recording = Poll.until(60) { (try? cluster.get("recordings", id.uuidString.lowercased()))?["status"] as? String == "RECORDING_STARTED" }
        #expect(recording)
        // Its view says what it writes, and has no layout or theme: nothing is composited.
        let running = try cluster.get("recordings", id.uuidString.lowercased())
        #expect(running["mode"] as? String == "tracks" && running["layout"] == nil && running["theme"] == nil, "\(running)")

        // No pause, layout or capture: there is no composite.
        let pause = try cluster.call("POST", "/v2/recordings/pause", ["roomId": "tracks-room"])
        #expect(pause.0 == 400 && "\(pause.1 ?? [:])".contains("it has no pause"), "\(pause)")
        let layout = try cluster.call("POST", "/v2/recordings/\(id.uuidString.lowercased())/layout", ["layout": ["type": "SPOTLIGHT"]])
        #expect(layout.0 == 400 && "\(layout.1 ?? [:])".contains("it has no layout"), "\(layout)")
        let capture = try cluster.call("POST", "/v2/recordings/capture", ["roomId": "tracks-room"])
        #expect(capture.0 == 400 && "\(capture.1 ?? [:])".contains("no composite picture"), "\(capture)")

        // Several seconds of the looping room, then the stop.
        // The manifest is rewritten as the files grow: several seconds of the looping room.
        let growing = cluster.storage + "/recordings/\(id.uuidString.lowercased())/part-1.tracks/manifest.json"
        let recorded = Poll.until(60) {
            guard let data = FileManager.default.contents(atPath: growing),
                  let tracks = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["tracks"] as? [[String: Any]]
            else { return false }
            return tracks.contains { ($0["end"] as? Double ?? 0) >= 4 }
        }
        #expect(recorded)
        _ = try cluster.call("POST", "/v2/recordings/stop", ["roomId": "tracks-room"])
        #expect(try cluster.waitForEnd(id, timeout: 60) == "STOPPED")

        let view = try cluster.get("recordings", id.uuidString.lowercased())
        let file = try #require(view["file"] as? [String: Any], "\(view)")
        let meta = try #require(file["meta"] as? [String: Any])
        #expect(meta["format"] as? String == "tracks" && (meta["duration"] as? Double ?? 0) >= 4, "\(file)")
        #expect((file["filePath"] as? String)?.hasSuffix("part-1.tracks") == true, "\(file)")
        let manifestURL = try #require(file["fileUrl"] as? String)
        #expect(manifestURL.hasSuffix("/part-1.tracks/manifest.json"), "\(manifestURL)")
        let fetched = try TCP.http("GET", manifestURL)
        #expect(fetched.status == 200 && fetched.headers["content-type"] == "application/json")
        let manifest = try JSONSerialization.jsonObject(with: Data(fetched.body)) as? [String: Any]
        let tracks = try #require(manifest?["tracks"] as? [[String: Any]], "\(String(describing: manifest))")
        #expect(manifest?["complete"] as? Bool == true && manifest?["roomId"] as? String == "tracks-room")
        #expect(Set(tracks.compactMap { $0["participantId"] as? String }) == ["erin", "frank"], "\(tracks)")
        #expect(tracks.count >= 4 && tracks.allSatisfy { $0["complete"] as? Bool == true }, "\(tracks)")
        // A track's file opens under the manifest's signature, by its name.
        let base = String(manifestURL.dropLast("manifest.json".count))
        let erin = try #require(tracks.first { $0["file"] as? String == "erin-video-1.webm" }, "\(tracks)")
        let video = try TCP.http("GET", base + "erin-video-1.webm")
        let local = cluster.storage + "/" + (file["filePath"] as? String ?? "") + "/erin-video-1.webm"
        let size = try FileManager.default.attributesOfItem(atPath: local)[.size] as? Int
        #expect(video.status == 200 && video.headers["content-type"] == "video/webm" && video.body.count == size)
        #expect(video.body.starts(with: [0x1A, 0x45, 0xDF, 0xA3]), "an EBML header")
        #expect((erin["frames"] as? Int ?? 0) > 60 && (erin["width"] as? Int) == 640, "\(erin)")
        #expect(try MediaProbe.probe(local).video?.codecName == "vp8")
    }

    /// SIGKILL to the worker while its files grow: the next worker takes the job over, finishes
    /// the killed part's files (each decodes, its manifest entry `complete` and its `end` what
    /// the file holds) and records on into part 2.
    @Test func aKilledWorkersTracksAreFinishedAndTheRecordingGoesOn() throws {
        let cluster = try ServiceCluster(rooms: ["killed-tracks"])
        try cluster.startAPI()
        let first = try cluster.startWorker("worker-a", maxJobs: 1)
        #expect(try cluster.call("POST", "/v2/recordings/start", ["roomId": "killed-tracks", "config": ["mode": "tracks"]]).0 == 200)
        let id = try #require(try cluster.jobs().first.map { try $0.decode("id", as: UUID.self) }).uuidString.lowercased()
        let manifestPath = { (part: Int) in cluster.storage + "/recordings/\(id)/part-\(part).tracks/manifest.json" }
        func tracks(_ part: Int) -> [[String: Any]] {
            guard let data = FileManager.default.contents(atPath: manifestPath(part)) else { return [] }
            return (try? JSONSerialization.jsonObject(with: Data(data)) as? [String: Any])?["tracks"] as? [[String: Any]] ?? []
        }
        #expect(Poll.until(60) { tracks(1).count == 4 && tracks(1).allSatisfy { ($0["end"] as? Double ?? 0) >= 3 } }, "\(tracks(1))")
        try cluster.startWorker("worker-b", maxJobs: 1)
        first.signal(SIGKILL)
        first.wait()
        // Taken over once the lease ends, and recording into part 2.
        #expect(Poll.until(60) { tracks(2).count == 4 && tracks(2).allSatisfy { ($0["end"] as? Double ?? 0) >= 1 } }, "\(tracks(2))")
        _ = try cluster.call("POST", "/v2/recordings/stop", ["roomId": "killed-tracks"])
        #expect(try cluster.waitForEnd(try #require(UUID(uuidString: id)), timeout: 60) == "STOPPED")

        let view = try cluster.get("recordings", id)
        let files = try #require(view["files"] as? [[String: Any]], "\(view)")
        #expect(files.map { $0["status"] as? String } == ["repaired", "complete"], "\(files)")
        #expect(files.map { $0["attempt"] as? Int } == [1, 2])
        let killed = tracks(1)
        #expect(killed.count == 4 && killed.allSatisfy { $0["complete"] as? Bool == true }, "\(killed)")
        for track in killed {
            let path = cluster.storage + "/recordings/\(id)/part-1.tracks/" + (track["file"] as? String ?? "")
            let decode = try Tool.decodeFully(path)
            #expect(decode.status == 0 && decode.standardError.isEmpty, "\(path): \(decode.standardError)")
            // Finished: a length in the file, the same as the manifest's, at least what was seen before the kill.
            let duration = try #require(try MediaProbe.probe(path).format.durationSeconds, "\(path) has no duration")
            let listed = (track["end"] as? Double ?? 0) - (track["start"] as? Double ?? 0)
            #expect(abs(duration - listed) < 0.05 && duration >= 2.5, "\(path): \(duration) s, listed \(listed) s")
        }
    }
}
