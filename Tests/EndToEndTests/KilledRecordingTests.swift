import JobSpec
import Foundation
import Platform
import TestSupport
import Testing

/// `revue record --realtime` killed with SIGKILL: the MP4 on disk plays, and `revue repair`
/// makes it faststart.
@Suite(.live, .timeLimit(.minutes(10))) struct KilledRecordingTests {
    @Test(arguments: [2.7, 5.3])
    func aKilledRecordingPlaysAndRepairs(after seconds: Double) throws {
        let directory = try TemporaryDirectory(prefix: "killed")
        let path = directory.file("f.mp4")
        let process = try Subprocess(RevueBinary.path, [
            "record", "--fixture", TestFixtures.path("example"), "--loop", "3", "--realtime", "--output", path,
            "--log-level", "error",
        ], standardOutput: .discard, standardError: .file(directory.file("stderr.log")))
        let started = Date()
        usleep(UInt32(seconds * 1_000_000))
        process.signal(SIGKILL)
        let elapsed = Date().timeIntervalSince(started)
        #expect(process.wait() == .signalled(SIGKILL))

        let decode = try Tool.decodeFully(path)
        #expect(decode.status == 0, "\(decode.standardError)")
        #expect(decode.standardError.isEmpty, "\(decode.standardError)")
        let duration = try #require(try MediaProbe.probe(path).format.durationSeconds)
        #expect(abs(duration - elapsed) <= 2, "recorded \(elapsed) s, the file has \(duration) s")

        let repair = try Subprocess.run(RevueBinary.path, ["repair", path, "--log-level", "error"])
        #expect(repair.succeeded, "\(repair.standardError)")
        #expect(repair.standardOutput.contains("repaired"))
        let boxes = try MP4Boxes.topLevel(path)
        #expect(boxes.firstIndex(of: "moov") ?? 99 < boxes.firstIndex(of: "mdat") ?? 0, "\(boxes)")
        #expect(!boxes.contains("moof"))
        #expect(try Tool.decodeFully(path).status == 0)
        let repaired = try #require(try MediaProbe.probe(path).format.durationSeconds)
        #expect(abs(repaired - duration) < 0.1)
    }
}
