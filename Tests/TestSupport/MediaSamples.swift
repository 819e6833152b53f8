import Foundation
import Layout
import Media

/// Pictures and sound taken out of media files with ffmpeg, for tests that check pixels and
/// tones.
public enum MediaSamples {
    /// The picture shown at `time` seconds, as planar YUV 4:2:0.
    public static func frame(of path: String, at time: Double, width: Int, height: Int) throws -> VideoFrame {
        let directory = try TemporaryDirectory(prefix: "frame")
        let output = directory.file("frame.yuv")
        let run = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-ss", String(format: "%.3f", time), "-i", path, "-frames:v", "1",
                                          "-f", "rawvideo", "-pix_fmt", "yuv420p", "-y", output])
        guard run.status == 0, let data = FileManager.default.contents(atPath: output) else {
            throw ToolError("ffmpeg could not take a frame at \(time) s from \(path): \(run.standardError)")
        }
        let bytes = Array(data)
        let lumaSize = width * height, chromaSize = ((width + 1) / 2) * ((height + 1) / 2)
        guard bytes.count == lumaSize + 2 * chromaSize else {
            throw ToolError("frame of \(bytes.count) bytes is not \(width)x\(height)")
        }
        return VideoFrame(width: width, height: height, y: Array(bytes[0..<lumaSize]),
                          u: Array(bytes[lumaSize..<lumaSize + chromaSize]), v: Array(bytes[(lumaSize + chromaSize)...]),
                          mediaTime: time)
    }

    /// Every picture of a file, `perSecond` a second, scaled to `width`x`height` (small: a
    /// check that a colour is nowhere in a file looks at all of it in one ffmpeg run).
    public static func frames(of path: String, perSecond: Int, width: Int, height: Int) throws -> [VideoFrame] {
        let directory = try TemporaryDirectory(prefix: "frames")
        let output = directory.file("frames.yuv")
        let run = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-vf", "fps=\(perSecond),scale=\(width):\(height)",
                                          "-f", "rawvideo", "-pix_fmt", "yuv420p", "-y", output])
        guard run.status == 0, let data = FileManager.default.contents(atPath: output) else {
            throw ToolError("ffmpeg could not take the frames of \(path): \(run.standardError)")
        }
        let bytes = Array(data)
        let lumaSize = width * height, chromaSize = ((width + 1) / 2) * ((height + 1) / 2), size = lumaSize + 2 * chromaSize
        return stride(from: 0, to: bytes.count - size + 1, by: size).enumerated().map { index, start in
            VideoFrame(width: width, height: height, y: Array(bytes[start..<start + lumaSize]),
                       u: Array(bytes[start + lumaSize..<start + lumaSize + chromaSize]), v: Array(bytes[(start + lumaSize + chromaSize)..<start + size]),
                       mediaTime: Double(index) / Double(perSecond))
        }
    }

    /// The audio of a file at 48 kHz, its channels averaged to mono (edit lists applied, as a
    /// player would). Averaging, unlike ffmpeg's default downmix, never raises a peak.
    public static func monoAudio(of path: String) throws -> [Float] {
        let directory = try TemporaryDirectory(prefix: "audio")
        let output = directory.file("audio.f32")
        let run = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-vn", "-af", "pan=mono|c0=0.5*c0+0.5*c1", "-ar", "48000", "-f", "f32le",
                                          "-y", output])
        guard run.status == 0, let data = FileManager.default.contents(atPath: output) else {
            throw ToolError("ffmpeg could not decode the audio of \(path): \(run.standardError)")
        }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Mean luma of every frame with its presentation time (ffmpeg's signalstats).
    public static func lumaPerFrame(of path: String) throws -> [(time: Double, luma: Double)] {
        let run = try Tool.run("ffprobe", ["-v", "error", "-f", "lavfi", "-i", "movie=\(path),signalstats", "-show_entries",
                                           "frame=pts_time:frame_tags=lavfi.signalstats.YAVG", "-of", "csv=p=0"])
        guard run.status == 0 else { throw ToolError("ffprobe signalstats failed: \(run.standardError)") }
        return run.standardOutput.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let time = Double(fields[0]), let luma = Double(fields[1]) else { return nil }
            return (time, luma)
        }
    }
}

/// The Goertzel algorithm: the power of one frequency in a block of samples.
public enum Goertzel {
    public static func power(of samples: ArraySlice<Float>, frequency: Double, sampleRate: Double = 48_000) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequency / sampleRate)
        var previous = 0.0, beforePrevious = 0.0
        for sample in samples {
            let current = Double(sample) + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        return power / Double(max(1, samples.count * samples.count))
    }

    /// How much stronger `frequency` is than the average of some frequencies around it, in dB.
    public static func prominence(of samples: ArraySlice<Float>, frequency: Double) -> Double {
        let target = power(of: samples, frequency: frequency)
        let others = [0.63, 0.79, 1.27, 1.41].map { power(of: samples, frequency: frequency * $0) }
        let reference = others.reduce(0, +) / Double(others.count)
        return 10 * log10(max(target, 1e-20) / max(reference, 1e-20))
    }
}

extension VideoFrame {
    /// The mean absolute difference of the luma of two pictures of one size inside `rect`
    /// (0: identical; 255: black against white), for "did this area change".
    public func meanAbsoluteDifference(to other: VideoFrame, in rect: Rect) -> Double {
        let left = max(0, rect.x), top = max(0, rect.y)
        let right = min(width, other.width, rect.x + rect.width), bottom = min(height, other.height, rect.y + rect.height)
        guard right > left, bottom > top else { return 0 }
        var total = 0
        for row in top..<bottom {
            for column in left..<right {
                total += abs(Int(y[row * width + column]) - Int(other.y[row * other.width + column]))
            }
        }
        return Double(total) / Double((right - left) * (bottom - top))
    }
}
