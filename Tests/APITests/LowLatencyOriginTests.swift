@testable import API
import Foundation
import HLS
import HTTP
import Jobs
import OutboundHTTP
import Outputs
import Synchronization
import TestSupport
import Testing

/// Low-latency HLS from a player's side of the origin: `revue serve`'s file route over an HLS
/// output writing in real time. Blocking reloads are answered as parts are written, a request too
/// far ahead is refused at once, the hinted part is held until it is whole, delta updates skip
/// what is old, a request that is never filled gets 503, and PyPI's m3u8 reads every playlist.
@Suite(.serialized) struct LowLatencyOriginTests {
    /// An origin over a storage directory: the file route of `revue serve`, nothing else.
    final class Origin: Sendable {
        let storage: TemporaryDirectory
        let files: FileServer
        let server: HTTPServer
        let signer = FileURLSigner(apiSecret: "origin secret")
        var directory: String { storage.path + "/hls/job/part-1" }

        init(held: HLSHeldRequests = HLSHeldRequests()) throws {
            storage = try TemporaryDirectory(prefix: "origin")
            try FileManager.default.createDirectory(atPath: storage.path + "/hls/job/part-1", withIntermediateDirectories: true)
            let files = FileServer(root: storage.path, signer: signer, held: held)
            self.files = files
            server = HTTPServer { request, _ in
                let relative = request.path.split(separator: "/").dropFirst().joined(separator: "/")
                return files.heldResult(request, relativePath: relative) ?? .response(files.serve(request, relativePath: relative))
            }
            try server.start(host: "127.0.0.1", port: 0)
        }

        deinit { server.stop() }

        func get(_ name: String, _ query: String = "") throws -> (status: Int, text: String, body: [UInt8]) {
            let url = "http://127.0.0.1:\(server.port)/files/" + signer.signedPath("hls/job/part-1/" + name, now: Date()) + query
            let response = try HTTPClient.request("GET", url, timeout: 20)
            return (response.status, String(decoding: response.body, as: UTF8.self), response.body)
        }
    }

    /// Seconds since the epoch a file was last written (its rename into place follows at once).
    static func modified(_ path: String) -> Double? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }

    /// Reads playlists with PyPI's m3u8 (strict): one JSON object each.
    static func readWithM3U8(_ paths: [String]) throws -> [[String: Any]] {
        let run = try Tool.run(try TestPeers.python(), [TestPeers.script("hls_playlists.py")] + paths)
        #expect(run.status == 0, "m3u8 could not read a playlist: \(run.standardError)")
        return run.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test(.timeLimit(.minutes(10))) func blockingReloadsAreAnsweredAsPartsAreWritten() throws {
        let origin = try Origin()
        let streams = try EncodedStreams(seconds: 12)
        let output = try HLSOutput(directory: origin.directory, streams: streams.layout, lowLatency: HLSLowLatency(partTarget: 0.5))
        // The writer: packets at the pace they were captured, as a live room gives them.
        let writer = Thread {
            let started = Date()
            for packet in streams.packets {
                let due = EncodedStreams.time(packet)
                let wait = due - Date().timeIntervalSince(started)
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                try? output.write(packet)
            }
        }
        writer.start()
        let published = Date().addingTimeInterval(15)
        while !FileManager.default.fileExists(atPath: origin.directory + "/live.m3u8") && Date() < published { usleep(20_000) }
        let playlistsDirectory = try TemporaryDirectory(prefix: "answered")
        var saved: [String] = []

        // Six blocking reloads in a row, each for the part after the last listed.
        var delays: [Double] = []
        var latest = HLSMediaPlaylist(text: try origin.get("live.m3u8").text)
        for round in 0..<6 {
            let last = try #require(latest.lastPart)
            let hinted = try #require(latest.hintedPart)
            // The hinted part, asked for before it exists, is held and then served whole.
            let hintedAnswer = Mutex<(status: Int, body: [UInt8])?>(nil)
            let hintThread = Thread {
                let answer = (try? origin.get(hinted)).map { ($0.status, $0.body) }
                hintedAnswer.withLock { $0 = answer }
            }
            hintThread.start()
            let answer = try origin.get("live.m3u8", "?_HLS_msn=\(last.sequence)&_HLS_part=\(last.index + 1)")
            let received = Date().timeIntervalSince1970
            #expect(answer.status == 200)
            let playlist = HLSMediaPlaylist(text: answer.text)
            let newest = try #require(playlist.lastPart)
            #expect(newest > last, "round \(round): \(newest) after \(last)")
            // The part the request waited for: how long after it was written did the answer come?
            let uri = HLSPart.uri(sequence: newest.sequence, index: newest.index)
            let written = try #require(Self.modified(origin.directory + "/" + uri))
            delays.append(received - written)
            let path = playlistsDirectory.file("blocking-\(round).m3u8")
            try answer.text.write(toFile: path, atomically: true, encoding: .utf8)
            saved.append(path)
            latest = playlist
            let hintDeadline = Date().addingTimeInterval(5)
            while hintedAnswer.withLock({ $0 }) == nil && Date() < hintDeadline { usleep(10_000) }
            let served = try #require(hintedAnswer.withLock { $0 })
            #expect(served.status == 200 && served.body == Array(FileManager.default.contents(atPath: origin.directory + "/" + hinted) ?? Data()),
                    "the hinted \(hinted) was answered \(served.status), \(served.body.count) bytes")
        }
        print("measured: blocking reloads answered \(delays.map { String(format: "%.0f", $0 * 1000) }.joined(separator: ", ")) ms after their part was written")
        #expect(delays.allSatisfy { $0 >= -0.05 && $0 < 0.5 }, "\(delays)")

        // Too far ahead: refused at once (§6.2.5.2 says 400), as is a part without a segment.
        let started = Date()
        let ahead = try origin.get("live.m3u8", "?_HLS_msn=\(latest.nextSequence + 3)")
        #expect(ahead.status == 400 && Date().timeIntervalSince(started) < 0.5, "\(ahead.status) \(ahead.text)")
        let partAhead = try origin.get("live.m3u8", "?_HLS_msn=\(latest.nextSequence + 1)&_HLS_part=6")
        #expect(partAhead.status == 400, "\(partAhead.text)")
        #expect(try origin.get("live.m3u8", "?_HLS_part=1").status == 400)

        writer.cancel()
        while !writer.isFinished { usleep(20_000) }
        try output.finish()
        // Ended: directives are ignored and the whole playlist comes at once.
        let ended = try origin.get("live.m3u8", "?_HLS_msn=999&_HLS_part=0")
        #expect(ended.status == 200 && ended.text.hasSuffix("#EXT-X-ENDLIST\n"))

        let read = try Self.readWithM3U8(saved)
        #expect(read.count == saved.count)
        for playlist in read {
            #expect(playlist["canBlockReload"] as? String == "YES")
            #expect(playlist["partTarget"] as? Double == 0.5)
            #expect((playlist["parts"] as? Int ?? 0) >= 4 && playlist["preloadHint"] is String, "\(playlist)")
        }
    }

    @Test(.timeLimit(.minutes(10))) func deltaUpdatesAndRequestsNeverFilled() throws {
        let clock = Mutex<Double>(1000)
        let origin = try Origin(held: HLSHeldRequests(now: { clock.withLock { $0 } }))
        let streams = try EncodedStreams(seconds: 26)
        // A long window, so there is something old enough to skip; written at once, left live.
        let output = try HLSOutput(directory: origin.directory, streams: streams.layout, window: 20, lowLatency: HLSLowLatency(partTarget: 0.5))
        for packet in streams.packets { try output.write(packet) }

        let full = try origin.get("live.m3u8")
        let delta = try origin.get("live.m3u8", "?_HLS_skip=YES")
        #expect(delta.status == 200 && delta.text.contains("#EXT-X-SKIP:SKIPPED-SEGMENTS="))
        let playlists = try TemporaryDirectory(prefix: "delta")
        try full.text.write(toFile: playlists.file("full.m3u8"), atomically: true, encoding: .utf8)
        try delta.text.write(toFile: playlists.file("delta.m3u8"), atomically: true, encoding: .utf8)
        let read = try Self.readWithM3U8([playlists.file("full.m3u8"), playlists.file("delta.m3u8")])
        try #require(read.count == 2)
        let wholeSegments = try #require(read[0]["segments"] as? [String])
        let kept = try #require(read[1]["segments"] as? [String])
        let skipped = try #require(read[1]["skipped"] as? Int)
        // The delta is the full playlist less its oldest segments, numbered the same.
        print("measured: delta update skips \(skipped) of \(wholeSegments.count) segments")
        #expect(skipped > 0 && skipped + kept.count == wholeSegments.count && Array(wholeSegments.suffix(kept.count)) == kept)
        #expect(read[1]["mediaSequence"] as? Int == read[0]["mediaSequence"] as? Int)
        #expect(read[1]["edgeParts"] as? [String] == read[0]["edgeParts"] as? [String])

        // Nothing more is written: a blocking request for the next part and a request for the
        // hinted one are held, then answered 503 and 404 after three target durations.
        let playlist = HLSMediaPlaylist(text: full.text)
        let next = try #require(playlist.lastPart)
        let hinted = try #require(playlist.hintedPart)
        let answers = Mutex<[String: Int]>([:])
        let blocked = Thread {
            let status = try? origin.get("live.m3u8", "?_HLS_msn=\(next.sequence)&_HLS_part=\(next.index + 1)").status
            answers.withLock { $0["playlist"] = status }
        }
        let hint = Thread {
            let status = try? origin.get(hinted).status
            answers.withLock { $0["hint"] = status }
        }
        blocked.start()
        hint.start()
        let held = Date().addingTimeInterval(5)
        while origin.files.held.count < 2 && Date() < held { usleep(10_000) }
        #expect(origin.files.held.count == 2)
        usleep(100_000)
        #expect(answers.withLock { $0.isEmpty })
        clock.withLock { $0 += 6.1 }
        let answered = Date().addingTimeInterval(5)
        while answers.withLock({ $0.count }) < 2 && Date() < answered { usleep(10_000) }
        #expect(answers.withLock { $0 } == ["playlist": 503, "hint": 404])
        try output.finish()
    }
}

