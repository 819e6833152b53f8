@testable import API
import Foundation
import HLS
import OutboundHTTP
import Platform
import Synchronization
import TestSupport
import Testing

/// Revue's origin speaks HTTP/1.1; nginx from Debian in front gives players HTTP/2 (what Apple's
/// players need for low-latency HLS) and, caching blocking reloads as a CDN does, collapses any
/// number of viewers waiting for one part into one request held at the origin.
@Suite(.serialized) struct HLSBehindAProxyTests {
    static let start = Date(timeIntervalSince1970: 1_795_964_035)

    /// Writes the live playlist as a writer would with `count` whole segments and `edgeParts`
    /// parts of the next, and the part files it names.
    static func write(_ directory: String, segments count: Int, edgeParts: Int) throws {
        let lowLatency = HLSLowLatency(partTarget: 0.5)
        let segments = (0..<count).map { HLSSegment(sequence: $0, uri: String(format: "seg_%05d.m4s", $0), duration: 2, programDateTime: start) }
        let part = { (sequence: Int, index: Int) in
            HLSPart(sequence: sequence, index: index, uri: HLSPart.uri(sequence: sequence, index: index), duration: 0.5, independent: index == 0)
        }
        let edge = HLSPlaylist.Edge(programDateTime: start, parts: (0..<edgeParts).map { part(count, $0) },
                                    nextPartURI: HLSPart.uri(sequence: count, index: edgeParts))
        for item in edge.parts { try Data("part \(item.uri)".utf8).write(to: URL(fileURLWithPath: directory + "/" + item.uri)) }
        let text = HLSPlaylist.lowLatencyLive(segments: segments, parts: (0..<count).flatMap { sequence in (0..<4).map { part(sequence, $0) } },
                                              edge: edge, window: 6, targetDuration: 2, lowLatency: lowLatency)
        try text.write(toFile: directory + "/live.m3u8.tmp", atomically: false, encoding: .utf8)
        rename(directory + "/live.m3u8.tmp", directory + "/live.m3u8")
    }

    @Test(.timeLimit(.minutes(10))) func nginxServesHTTP2AndCollapsesBlockedViewers() throws {
        let origin = try LowLatencyOriginTests.Origin()
        try Self.write(origin.directory, segments: 3, edgeParts: 1)
        let proxy = try NginxHLSProxy(origin: origin.server.port)
        let path = "/files/" + origin.signer.signedPath("hls/job/part-1/live.m3u8", now: Date()) + "?_HLS_msn=3&_HLS_part=1"

        // A player on HTTP/2 over TLS, waiting for part 1 of segment 3.
        let output = try TemporaryDirectory(prefix: "curl")
        let curl = try Subprocess("curl", ["-sk", "--http2", "-o", output.file("body"), "-w", "%{http_version} %{http_code}",
                                           "https://127.0.0.1:\(proxy.tlsPort)" + path],
                                  standardOutput: .file(output.file("out")), standardError: .file(output.file("err")))
        // And 40 more on HTTP/1.1, asking the same.
        let answers = Mutex<[Int]>([])
        let viewers = (0..<40).map { _ in
            Thread {
                let status = (try? HTTPClient.request("GET", "http://127.0.0.1:\(proxy.plainPort)" + path, timeout: 20))?.status ?? 0
                answers.withLock { $0.append(status) }
            }
        }
        viewers.forEach { $0.start() }
        let waiting = Date().addingTimeInterval(5)
        while origin.files.held.count < 1 && Date() < waiting { usleep(10_000) }
        usleep(500_000)
        // 41 viewers, one request held at the origin; nobody answered yet.
        let heldAtOrigin = origin.files.held.count
        #expect(heldAtOrigin == 1 && curl.poll() == nil && answers.withLock { $0.isEmpty })

        try Self.write(origin.directory, segments: 3, edgeParts: 2)
        let termination = curl.wait(timeout: 10)
        #expect(termination == .exited(0), "\((try? String(contentsOfFile: output.file("err"), encoding: .utf8)) ?? "")")
        let written = (try? String(contentsOfFile: output.file("out"), encoding: .utf8)) ?? ""
        let body = (try? String(contentsOfFile: output.file("body"), encoding: .utf8)) ?? ""
        #expect(written == "2 200", "curl: \(written)")
        #expect(HLSMediaPlaylist(text: body).lastPart == .init(sequence: 3, index: 1))
        let answered = Date().addingTimeInterval(10)
        while answers.withLock({ $0.count }) < 40 && Date() < answered { usleep(10_000) }
        #expect(answers.withLock { $0 } == Array(repeating: 200, count: 40))
        print("measured: 41 viewers of one part through nginx (1 on HTTP/2, 40 on HTTP/1.1), \(heldAtOrigin) request held at the origin; curl saw HTTP/\(written)")
    }
}
