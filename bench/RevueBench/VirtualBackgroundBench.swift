import Capture
import Foundation
import Media
import Platform
import Segmentation

/// `bench/virtual-background`: what the SDK's virtual background costs per 640x360 picture,
/// beside MediaPipe's own way of doing the same work (`bench/virtual-background-reference.py`:
/// OpenCV and numpy around the same model in one Python process), in alternating pairs.
///
/// Both read the same y4m clip (a person moving on a grey wall, made once with ffmpeg from the
/// astronaut photo), segment every picture with the landscape selfie model and put the person
/// over the same green picture, then over the picture's own, blurred.
/// - Revue: `PersonSegmenter` (its helper process: the model alone) → `BackgroundBlender` over
///   a `CoverFit` background, as `VideoSDKBackgroundProcessor` does; the measure is this
///   process's CPU plus the helper's (its /proc stat, read before and after).
/// - Reference: the Python process's CPU over its loop (getrusage), the model loaded first.
enum VirtualBackgroundBench {
    static let size = CameraFormat.h360p_w640p

    static func run(frames: Int, runs: Int) throws {
        let runtime = try SegmentationRuntime.locate()
        let work = NSTemporaryDirectory() + "revue-virtual-background-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let clip = work + "/person.y4m", green = work + "/green.png"
        let made = try Subprocess("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "color=c=0x7e7e7e:s=640x360:r=30:d=4",
                                             "-i", runtime.directory + "/astronaut.png", "-filter_complex",
                                             "[1]scale=360:360[p];[0][p]overlay=x='140+100*sin(t*1.5)':y=0,format=yuv420p", clip]).wait()
        let painted = try Subprocess("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "color=c=0x28be46:s=1280x720",
                                                "-frames:v", "1", green]).wait()
        guard made == .exited(0), painted == .exited(0) else { throw BenchError("ffmpeg could not make the clip: \(made), \(painted)") }
        let reference = FileManager.default.currentDirectoryPath + "/bench/virtual-background-reference.py"
        var load = [Double](repeating: 0, count: 3)
        getloadavg(&load, 3)
        print(String(format: "virtual-background: 640x360, %d pictures a run, landscape selfie model; load before %.2f %.2f %.2f", frames, load[0], load[1], load[2]))
        var revue: [String: [Double]] = [:], python: [String: [Double]] = [:], ratios: [String: [Double]] = [:]
        for run in 1...runs {
            for (name, background) in [("image", Optional(green)), ("blur", nil)] {
                let ours = try revueRun(runtime: runtime, clip: clip, background: background, frames: frames)
                let theirs = try referenceRun(runtime: runtime, script: reference, clip: clip, background: background ?? "blur", frames: frames)
                revue[name, default: []].append(ours.total / Double(frames))
                python[name, default: []].append(theirs / Double(frames))
                ratios[name, default: []].append(ours.total / theirs)
                print(String(format: "run %d %@: Revue %.2f ms a picture (%.2f in Swift, %.2f in the helper), reference %.2f ms: %.2fx", run, name,
                             ours.total / Double(frames) * 1000, ours.swift / Double(frames) * 1000, ours.helper / Double(frames) * 1000,
                             theirs / Double(frames) * 1000, ours.total / theirs))
            }
        }
        getloadavg(&load, 3)
        let median = { (values: [Double]?) in SDKEncodeBench.median(values ?? []) }
        print("")
        print("| 640x360, behind the person | Revue: ms of CPU a picture | cores at 30 fps | reference: ms a picture | Revue / reference (median, range) |")
        print("|---|---|---|---|---|")
        for name in ["image", "blur"] {
            let spread = ratios[name]?.sorted() ?? []
            print(String(format: "| %@ | %.2f | %.3f | %.2f | %.2fx (%.2f–%.2f) |", name, median(revue[name]) * 1000, median(revue[name]) * 30,
                         median(python[name]) * 1000, median(ratios[name]), spread.first ?? 0, spread.last ?? 0))
        }
        print(String(format: "load after %.2f %.2f %.2f", load[0], load[1], load[2]))
    }

    /// Revue's work for `frames` pictures: CPU of this process and of the helper.
    /// - Parameter background: an image, or nil for the picture's own, blurred.
    static func revueRun(runtime: SegmentationRuntime, clip: String, background: String?, frames: Int) throws -> (total: Double, swift: Double, helper: Double) {
        let camera = try Y4MFileCamera(path: clip)
        let image = try background.map { try MediaFileCamera(path: $0).frame(0) }
        let segmenter = try PersonSegmenter(runtime: runtime)
        defer { segmenter.stop() }
        _ = try segmenter.segment(camera.frame(0))  // loaded before the clock starts
        guard let helper = segmenter.helperProcessID else { throw BenchError("the helper is not running") }
        let helperBefore = try processCPU(helper)
        var fitted: VideoFrame?
        var checksum = 0
        let swift = try CPUTime.measure {
            for index in 0..<frames {
                let frame = camera.frame(index)
                if fitted == nil, let image { fitted = CoverFit.fit(image, width: frame.width, height: frame.height) }
                let behind = fitted ?? BlurredPicture.of(frame)
                let out = BackgroundBlender.blend(frame, over: behind, mask: try segmenter.segment(frame))
                checksum &+= Int(out.y[out.y.count / 2])
            }
        }
        let helperCPU = try processCPU(helper) - helperBefore
        _ = checksum
        return (swift + helperCPU, swift, helperCPU)
    }

    static func referenceRun(runtime: SegmentationRuntime, script: String, clip: String, background: String, frames: Int) throws -> Double {
        let result = try Subprocess.run(runtime.python, [script, clip, background, String(frames)])
        guard result.succeeded, let data = result.standardOutput.split(separator: "\n").last.map({ Data($0.utf8) }),
              let answer = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let cpu = answer["cpu"] as? Double
        else { throw BenchError("the reference failed: \(result.termination) \(result.standardError.suffix(500))") }
        return cpu
    }

    /// utime + stime of a running process, seconds (proc(5), fields 14 and 15).
    static func processCPU(_ pid: pid_t) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        guard let close = stat.lastIndex(of: ")") else { throw BenchError("cannot read /proc/\(pid)/stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { throw BenchError("cannot read /proc/\(pid)/stat") }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
