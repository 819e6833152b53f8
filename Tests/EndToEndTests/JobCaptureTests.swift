import Foundation
import JobSpec
import Postgres
import TestSupport
import Testing

/// Captures of a running job's composite (`POST /v2/hls/capture`, issue 26 item 4), through the
/// REST API, a worker and PostgreSQL: an HLS stream of the example fixture room answers with a
/// JPEG of the composite at its size, and a PNG at the size asked, each at a signed URL; what a
/// capture cannot be is refused with a clear error.
@Suite(.serialized, .live, .timeLimit(.minutes(10))) struct JobCaptureTests {
    @Test func anHLSStreamIsCapturedAsJPEGAndPNG() throws {
        let cluster = try ServiceCluster(rooms: ["capture-room"])
        try cluster.startAPI()
        _ = try cluster.startWorker("worker-capture", maxJobs: 1)
        let none = try cluster.call("POST", "/v2/hls/capture", ["roomId": "capture-room"])
        #expect(none.0 == 409 && "\(none.1 ?? [:])".contains("no HLS stream in progress"), "\(none)")

        let started = try cluster.call("POST", "/v2/hls/start", ["roomId": "capture-room", "config": ["quality": "low"]])
        #expect(started.0 == 200, "\(started)")
        let id = try #require(try cluster.jobs().first.map { try $0.decode("id", as: UUID.self) })
        let playable = Poll.until(60) { (try? cluster.get("hls", id.uuidString.lowercased()))?["status"] as? String == "HLS_PLAYABLE" }
        #expect(playable)

        // The platform's default: a JPEG of the whole composite (quality low: 854x480).
        let jpeg = try cluster.call("POST", "/v2/hls/capture", ["roomId": "capture-room"])
        #expect(jpeg.0 == 200, "\(jpeg)")
        let answer = try #require(jpeg.1)
        let meta = try #require(answer["meta"] as? [String: Any], "\(answer)")
        #expect(meta["width"] as? Int == 854 && meta["height"] as? Int == 480 && meta["format"] as? String == "jpg", "\(meta)")
        #expect(answer["roomId"] as? String == "capture-room" && (answer["fileName"] as? String)?.hasSuffix(".jpg") == true, "\(answer)")
        let url = try #require(answer["fileUrl"] as? String)
        let fetched = try TCP.http("GET", url)
        #expect(fetched.status == 200 && fetched.headers["content-type"] == "image/jpeg" && fetched.body.starts(with: [0xFF, 0xD8]))
        #expect(fetched.body.count == answer["fileSize"] as? Int)
        #expect(FileManager.default.fileExists(atPath: cluster.storage + "/" + (answer["filePath"] as? String ?? "")))

        // A PNG of the size asked, showing the room: the example's two cameras, not a blank canvas.
        let png = try cluster.call("POST", "/v2/hls/capture", ["roomId": "capture-room", "width": 320, "format": "png"])
        #expect(png.0 == 200, "\(png)")
        let pngMeta = try #require(png.1?["meta"] as? [String: Any], "\(png)")
        #expect(pngMeta["width"] as? Int == 320 && pngMeta["height"] as? Int == 180 && pngMeta["format"] as? String == "png", "\(pngMeta)")
        let picture = try TCP.http("GET", try #require(png.1?["fileUrl"] as? String)).body
        #expect(picture.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let colours = try [80, 240].map { try PNGPixels.pixel(of: picture, x: $0, y: 90) }
        let background = try PNGPixels.pixel(of: picture, x: 1, y: 1)
        #expect(colours.allSatisfy { abs($0.0 - background.0) + abs($0.1 - background.1) + abs($0.2 - background.2) > 60 },
                "tiles \(colours) against the background \(background)")

        // What a capture cannot be.
        let timed = try cluster.call("POST", "/v2/hls/capture", ["roomId": "capture-room", "time": 3])
        #expect(timed.0 == 400 && "\(timed.1 ?? [:])".contains("time is not supported"), "\(timed)")
        let huge = try cluster.call("POST", "/v2/hls/capture", ["roomId": "capture-room", "width": 100_000])
        #expect(huge.0 == 400 && "\(huge.1 ?? [:])".contains("width"), "\(huge)")
        let gif = try cluster.call("POST", "/v2/hls/capture", ["roomId": "capture-room", "format": "gif"])
        #expect(gif.0 == 400 && "\(gif.1 ?? [:])".contains("jpg or png"), "\(gif)")
        let noRecording = try cluster.call("POST", "/v2/recordings/capture", ["roomId": "capture-room"])
        #expect(noRecording.0 == 409, "\(noRecording)")
        _ = try cluster.call("POST", "/v2/hls/stop", ["roomId": "capture-room"])
        #expect(try cluster.waitForEnd(id, timeout: 60) == "STOPPED")
    }
}
