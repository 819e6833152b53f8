import Fixture
import Foundation
import JobSpec
import LibAV
import Media
import Outputs
import Pipeline
import Platform
import TestSupport

/// `bench/encode-quality`: how close each `revue record` binary's video is to the pictures it
/// encoded. The composited pictures of the fixture are written raw (from this process's own
/// pipeline: the compositing of the binaries compared must be the same, which their outputs
/// being identical at equal encoder settings shows), each binary records the fixture, and
/// ffmpeg's `psnr` and `ssim` filters compare each recording with the raw pictures.
enum EncodeQualityBench {
    static func run(fixtureDirectory: String, passes: Int, binaries: [String]) throws {
        let fixture = try Fixture(directory: fixtureDirectory)
        let work = try TemporaryDirectory(prefix: "revue-encode-quality")
        LibAVLog.setLevel()
        let raw = work.file("canvas.yuv")
        let size = try dumpCanvases(fixture, passes: passes, to: raw, work: work)
        print(String(format: "encode-quality: %@, %d pass%@, %dx%d, PSNR and SSIM of each recording against the pictures it encoded",
                     fixtureDirectory, passes, passes == 1 ? "" : "es", size.width, size.height))
        for (index, binary) in binaries.enumerated() {
            let output = work.file("\(index).mp4")
            let record = try Subprocess.run(binary, ["record", "--fixture", fixtureDirectory, "--output", output, "--loop", "\(passes)",
                                                     "--loop-gap", "0", "--log-level", "warning"])
            guard record.succeeded else { throw BenchError("\(binary) failed: \(record.standardError)") }
            let compare = try Subprocess.run("ffmpeg", [
                "-nostdin", "-hide_banner", "-i", output, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(size.width)x\(size.height)",
                "-r", "30", "-i", raw, "-lavfi", "[0:v]split[a0][a1];[1:v]split[b0][b1];[a0][b0]psnr;[a1][b1]ssim", "-f", "null", "-",
            ])
            guard compare.succeeded else { throw BenchError("ffmpeg psnr/ssim failed: \(compare.standardError)") }
            let lines = compare.standardError.split(separator: "\n").filter { $0.contains("PSNR y:") || $0.contains("SSIM Y:") }
                .map { $0.split(separator: "]").last.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? "" }
            let bytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? NSNumber)??.intValue ?? 0
            print("  \(binary): \(bytes) bytes")
            for line in lines { print("    " + line) }
        }
    }

    /// Records the fixture in this process, writing every composited picture as it goes to the
    /// encoder (raw I420, frame after frame).
    static func dumpCanvases(_ fixture: Fixture, passes: Int, to path: String, work: TemporaryDirectory) throws -> (width: Int, height: Int) {
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path) else {
            throw BenchError("cannot write \(path)")
        }
        defer { try? file.close() }
        let pipeline = try RecordingPipeline(config: RecordingConfig())
        var size = (width: 0, height: 0)
        pipeline.onCanvas = { image, _, _ in
            size = (image.width, image.height)
            let picture = VideoFrame(copying: image)
            file.write(Data(picture.y))
            file.write(Data(picture.u))
            file.write(Data(picture.v))
        }
        pipeline.add(sink: try MP4FileOutput(path: work.file("in-process.mp4"), streams: pipeline.streams))
        try pipeline.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible, passes: passes, loopGap: 0)))
        return size
    }
}
