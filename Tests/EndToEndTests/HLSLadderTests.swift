import Foundation
import Platform
import TestSupport
import Testing

/// `revue record --renditions 720p,360p`: one composite, two encodes, a ladder of two HLS
/// renditions whose segments start at the same pictures, under multivariant playlists that
/// ffmpeg reads.
@Suite(.timeLimit(.minutes(10))) struct HLSLadderEndToEndTests {
    @Test func aFixtureRecordsAsALadderOfTwoRenditions() throws {
        let root = try TemporaryDirectory(prefix: "hls-ladder-e2e")
        let run = try Subprocess.run(RevueBinary.path, ["record", "--fixture", TestFixtures.path("example"), "--output", "hls:" + root.file("hls"),
                                                        "--renditions", "360p,720p", "--log-level", "error"])
        #expect(run.succeeded, "\(run.standardError)")
        let master = try String(contentsOfFile: root.file("hls/master.m3u8"), encoding: .utf8)
        let variants = master.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(variants == ["720p/index.m3u8", "360p/index.m3u8"], "best first: \(master)")
        #expect(master.contains("RESOLUTION=1280x720") && master.contains("RESOLUTION=640x360"))
        let durations = ["720p", "360p"].map { name in
            ((try? String(contentsOfFile: root.file("hls/\(name)/index.m3u8"), encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.hasPrefix("#EXTINF") }
        }
        #expect(durations[0].count >= 4 && durations[0] == durations[1], "segments line up: \(durations)")
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "stream=width,height", "-of", "csv=p=0",
                                                   root.file("hls/360p/index.m3u8")])
        let sizes = Set(probe.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        #expect(sizes == ["640,360"], "\(probe.standardOutput)")
        let decode = try Subprocess.run("ffmpeg", ["-nostdin", "-v", "error", "-xerror", "-i", root.file("hls/master.m3u8"), "-map", "0", "-f", "null", "-"])
        #expect(decode.succeeded, "\(decode.standardError)")
        let refused = try Subprocess.run(RevueBinary.path, ["record", "--fixture", TestFixtures.path("example"), "--output", "hls:" + root.file("x"),
                                                            "--renditions", "360p,240p"])
        #expect(!refused.succeeded && refused.standardError.contains("480p or more"), "\(refused.standardError)")
    }
}
