import Foundation

/// Pixels of a PNG (a browser screenshot), decoded by ffmpeg to RGB.
public enum PNGPixels {
    /// The RGB of the pixel at (`x`, `y`).
    public static func pixel(of png: [UInt8], x: Int, y: Int) throws -> (Int, Int, Int) {
        let directory = try TemporaryDirectory(prefix: "png")
        try Data(png).write(to: URL(fileURLWithPath: directory.file("in.png")))
        let probe = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0",
                                             directory.file("in.png")])
        let size = probe.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        guard size.count == 2, x >= 0, y >= 0, x < size[0], y < size[1] else { throw ToolError("pixel \(x),\(y) is outside the picture \(size)") }
        let run = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", directory.file("in.png"), "-f", "rawvideo", "-pix_fmt", "rgb24",
                                          directory.file("out.rgb")])
        guard run.status == 0, let data = FileManager.default.contents(atPath: directory.file("out.rgb")) else {
            throw ToolError("ffmpeg could not decode the PNG: \(run.standardError)")
        }
        let bytes = Array(data)
        let offset = (y * size[0] + x) * 3
        guard offset + 2 < bytes.count else { throw ToolError("the decoded picture is short") }
        return (Int(bytes[offset]), Int(bytes[offset + 1]), Int(bytes[offset + 2]))
    }
}
