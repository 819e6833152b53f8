import JobSpec
import Foundation
import Platform
import Postgres
import TestSupport
import Testing

/// Real processes: an API and workers on one PostgreSQL.
@Suite(.serialized, .live, .timeLimit(.minutes(10))) struct WorkerPoolTests {
    /// Two workers and one API; forty start and stop requests over five rooms at once.
    @Test func twoWorkersFortyRequests() async throws {
        let rooms = ["r1", "r2", "r3", "r4", "r5"]
        let cluster = try ServiceCluster(rooms: rooms)
        try cluster.startAPI()
        try cluster.startWorker("worker-a")
        try cluster.startWorker("worker-b")

        // 20 starts: every room gets two recordings and two HLS starts at the same moment.
        let starts = try await withThrowingTaskGroup(of: (String, String, Int, Int?).self) { group in
            for room in rooms {
                for kind in ["recordings", "hls", "recordings", "hls"] {
                    group.addTask {
                        let (status, json, _) = try cluster.call("POST", "/v2/\(kind)/start", ["roomId": room, "config": ["quality": "low"]])
                        return (room, kind, status, json?["code"] as? Int)
                    }
                }
            }
            var all: [(String, String, Int, Int?)] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(starts.filter { $0.2 == 200 }.count == 10)
        for room in rooms {
            for kind in ["recordings", "hls"] {
                let pair = starts.filter { $0.0 == room && $0.1 == kind }
                #expect(pair.filter { $0.2 == 200 }.count == 1, "\(room) \(kind): exactly one start wins")
                #expect(pair.filter { $0.2 == 409 }.map(\.3) == [kind == "recordings" ? 4018 : 4020])
            }
        }
        try await Task.sleep(for: .seconds(6))
        // 20 stops at once: two per room and kind.
        let stops = try await withThrowingTaskGroup(of: Int.self) { group in
            for room in rooms {
                for kind in ["recordings", "hls", "recordings", "hls"] {
                    group.addTask { try cluster.call("POST", "/v2/\(kind)/stop", ["roomId": room]).0 }
                }
            }
            var all: [Int] = []
            for try await status in group { all.append(status) }
            return all
        }
        #expect(stops.filter { $0 == 200 }.count >= 10)
        #expect(try cluster.waitForAllEnded(timeout: 120))

        let jobs = try cluster.jobs()
        #expect(jobs.count == 10)
        var workersUsed = Set<String>()
        for job in jobs {
            let id = try job.decode("id", as: UUID.self)
            #expect(try job.decode("state", as: String.self) == "STOPPED", "\(id)")
            #expect(try job.decode("attempts", as: Int.self) == 1, "\(id) ran more than once")
            let events = try cluster.events(id)
            #expect(try events.filter { try $0.decode("to_state", as: String.self) == "STARTED" }.count == 1)
            let workers = Set(try events.compactMap { try $0.decodeIfPresent("worker_id", as: String.self) })
            #expect(workers.count == 1, "\(id) was run by \(workers)")
            workersUsed.formUnion(workers)
            // Its file plays.
            let parts = try JSONSerialization.jsonObject(with: Data(try job.decode("parts", as: String.self).utf8)) as? [[String: Any]] ?? []
            #expect(parts.count == 1)
            #expect(parts.first?["status"] as? String == "complete")
            let path = cluster.storage + "/" + (parts.first?["path"] as? String ?? "")
            let media = try job.decode("kind", as: String.self) == "hls" ? path + "/index.m3u8" : path
            let decode = try Tool.decodeFully(media)
            #expect(decode.status == 0, "\(media): \(decode.standardError)")
            #expect((try MediaProbe.probe(media).format.durationSeconds ?? 0) > 1)
        }
        // No room ever had two active jobs of one kind: the active intervals never overlap.
        let overlaps = try PostgresConnection(cluster.databaseURL).query("""
            SELECT count(*) AS n FROM jobs a JOIN jobs b ON a.room_id = b.room_id AND a.kind = b.kind AND a.id < b.id
            WHERE tstzrange(a.created_at, coalesce(a.stopped_at, 'infinity')) && tstzrange(b.created_at, coalesce(b.stopped_at, 'infinity'))
            """)
        #expect(try overlaps[0].decode("n", as: Int.self) == 0)
        #expect(!workersUsed.isEmpty)
    }

    /// A worker killed with SIGKILL mid-recording: another takes the job over within 15 s, as
    /// attempt 2 in a new part, and both parts play.
    @Test func aKilledWorkersJobIsTakenOver() async throws {
        let cluster = try ServiceCluster(rooms: ["r1"])
        try cluster.startAPI()
        let first = try cluster.startWorker("worker-a")
        let (status, _, _) = try cluster.call("POST", "/v2/recordings/start", ["roomId": "r1", "config": ["quality": "low"]])
        #expect(status == 200)
        // Wait until worker-a records.
        var id: UUID?
        for _ in 0..<100 {
            if let job = try cluster.jobs().first, try job.decode("state", as: String.self) == "STARTED" {
                id = try job.decode("id", as: UUID.self)
                break
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        let jobID = try #require(id)
        // worker-b is up and waiting before worker-a dies, so the time measured is the
        // takeover, not a process starting on a loaded machine (a CI run saw 9 s of that).
        try cluster.startWorker("worker-b")
        for _ in 0..<150 {
            if ((try? String(contentsOfFile: cluster.root.file("worker-b.log"), encoding: .utf8)) ?? "").contains("worker started") { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        try await Task.sleep(for: .seconds(3))
        first.signal(SIGKILL)
        let killed = Date()
        first.wait()
        // worker-b takes over. The time is the claim's own, from the job's history (the same
        // clock as `killed`): polling from here can lag by seconds when other suites hold this
        // process's threads, and that lag is not the worker's.
        var claimedAt: Date?
        while claimedAt == nil && Date().timeIntervalSince(killed) < 40 {
            if let job = try cluster.jobs().first, try job.decode("attempts", as: Int.self) == 2,
               try job.decodeIfPresent("worker_id", as: String.self) == "worker-b"
            {
                claimedAt = try cluster.events(jobID).first { try $0.decodeIfPresent("detail", as: String.self)?.hasPrefix("attempt 2:") == true }?
                    .decode("created_at", as: Date.self)
                break
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        let workerLog = ((try? String(contentsOfFile: cluster.root.file("worker-b.log"), encoding: .utf8)) ?? "")
            .split(separator: "\n").suffix(30).joined(separator: "\n")
        let after = try #require(claimedAt, "not taken over in 40 s; worker-b's log ends:\n\(workerLog)").timeIntervalSince(killed)
        print("measured: job taken over \(String(format: "%.2f", after)) s after its worker was killed (lease 10 s)")
        #expect(after < 15, "taken over after \(after) s; worker-b's log ends:\n\(workerLog)")
        // worker-a's pipeline died with it.
        let leftovers = try Subprocess.run("pgrep", ["-f", "--parent-pid \(first.pid)"])
        #expect(leftovers.standardOutput.isEmpty)
        try await Task.sleep(for: .seconds(4))
        #expect(try cluster.call("POST", "/v2/recordings/stop", ["roomId": "r1"]).0 == 200)
        #expect(try cluster.waitForAllEnded(timeout: 60))
        let job = try #require(try cluster.jobs().first)
        #expect(try job.decode("state", as: String.self) == "STOPPED")
        let parts = try JSONSerialization.jsonObject(with: Data(try job.decode("parts", as: String.self).utf8)) as? [[String: Any]] ?? []
        #expect(parts.map { $0["attempt"] as? Int } == [1, 2])
        #expect(parts.map { $0["status"] as? String } == ["repaired", "complete"])
        for part in parts {
            let path = cluster.storage + "/" + (part["path"] as? String ?? "")
            let decode = try Tool.decodeFully(path)
            #expect(decode.status == 0, "\(path): \(decode.standardError)")
            let boxes = try MP4Boxes.topLevel(path)
            #expect(boxes.firstIndex(of: "moov") ?? 99 < boxes.firstIndex(of: "mdat") ?? 0)
            #expect((part["duration"] as? Double ?? 0) > 1)
        }
        let details = try cluster.events(jobID).compactMap { try $0.decodeIfPresent("detail", as: String.self) }
        #expect(details.contains("attempt 2: taken over from worker-a (its lease ended)"), "\(details)")
    }

    /// A worker with one core to spend (`--max-cpu 1`) runs two 720p recordings (half a core
    /// each, `JobCost`) and leaves the third, which waits unclaimed until a second worker takes
    /// it; every claim logs its cost and the worker's load (docs/CLUSTER.md, "Workers").
    @Test func aWorkerTakesOnlyTheJobsItsCoresAllow() async throws {
        let rooms = ["c1", "c2", "c3"]
        let cluster = try ServiceCluster(rooms: rooms)
        try cluster.startAPI()
        try cluster.startWorker("worker-a", arguments: ["--max-cpu", "1"])
        for room in rooms {
            #expect(try cluster.call("POST", "/v2/recordings/start", ["roomId": room, "config": ["quality": "med"]]).0 == 200)
        }
        func held() throws -> [String: String] {
            try cluster.jobs().reduce(into: [:]) { held, row in
                held[try row.decode("room_id", as: String.self)] = try row.decodeIfPresent("worker_id", as: String.self) ?? "nobody"
            }
        }
        // Two claimed at once; the third is not, for as long as worker-a runs two.
        let deadline = Date().addingTimeInterval(20)
        while try held().values.filter({ $0 == "worker-a" }).count < 2 && Date() < deadline { try await Task.sleep(for: .milliseconds(200)) }
        try await Task.sleep(for: .seconds(3))
        let alone = try held()
        print("measured: worker-a with --max-cpu 1 holds \(alone.sorted { $0.key < $1.key })")
        #expect(alone.values.filter { $0 == "worker-a" }.count == 2 && alone.values.filter { $0 == "nobody" }.count == 1, "\(alone)")
        // A second worker takes what is left.
        try cluster.startWorker("worker-b", arguments: ["--max-cpu", "1"])
        let taken = Date().addingTimeInterval(20)
        while try held().values.contains("nobody") && Date() < taken { try await Task.sleep(for: .milliseconds(200)) }
        let both = try held()
        #expect(both.values.filter { $0 == "worker-a" }.count == 2 && both.values.filter { $0 == "worker-b" }.count == 1, "\(both)")
        let log = (try? String(contentsOfFile: cluster.root.file("worker-a.log"), encoding: .utf8)) ?? ""
        #expect(log.contains(#""cost":0.5"#) && log.contains(#""maxCpu":1"#), "\(log.suffix(1500))")
        for room in rooms { _ = try cluster.call("POST", "/v2/recordings/stop", ["roomId": room]) }
        #expect(try cluster.waitForAllEnded(timeout: 120))
    }
}
