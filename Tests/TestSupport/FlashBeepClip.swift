import Foundation

/// A clip for A/V sync checks: 6 s at 30 fps, a white picture on frames 30-32 of every 60
/// (1.0-1.1 s, 3.0-3.1 s, ...) and a 1 kHz beep over the same 0.1 s of every 2 s, black and
/// silence otherwise; six seconds loop into the same pattern. A y4m and a wav, made with ffmpeg.
public enum FlashBeepClip {
    public static func make(in directory: TemporaryDirectory) throws -> (video: String, audio: String) {
        let video = directory.file("flash.y4m"), audio = directory.file("beep.wav")
        let picture = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=black:s=640x360:r=30:d=6",
                                              "-vf", "drawbox=x=0:y=0:w=iw:h=ih:color=white:t=fill:enable='gte(mod(n,60),30)*lt(mod(n,60),33)'",
                                              "-pix_fmt", "yuv420p", video])
        guard picture.status == 0 else { throw ToolError("ffmpeg could not make the flashes: \(picture.standardError)") }
        let sound = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                                            "aevalsrc=0.8*sin(2*PI*1000*t)*gte(mod(t\\,2)\\,1)*lt(mod(t\\,2)\\,1.1):s=48000:d=6",
                                            "-ac", "1", "-c:a", "pcm_s16le", audio])
        guard sound.status == 0 else { throw ToolError("ffmpeg could not make the beeps: \(sound.standardError)") }
        return (video, audio)
    }

    /// Where the picture turns bright: frames whose mean luma crosses halfway between the
    /// darkest and the brightest frame.
    public static func flashes(_ frames: [(time: Double, luma: Double)]) -> [Double] {
        guard let low = frames.map(\.luma).min(), let high = frames.map(\.luma).max(), high - low > 40 else { return [] }
        let threshold = (low + high) / 2
        var onsets: [Double] = []
        var previous = high
        for frame in frames {
            if frame.luma > threshold && previous <= threshold { onsets.append(frame.time) }
            previous = frame.luma
        }
        return onsets
    }

    /// Where the sound starts after at least half a second of quiet: the first sample above a
    /// third of the loudest.
    public static func beeps(_ samples: [Float], sampleRate: Double = 48_000) -> [Double] {
        guard let peak = samples.map({ abs($0) }).max(), peak > 0.05 else { return [] }
        var onsets: [Double] = []
        var lastLoud = -Int(sampleRate)
        for (index, sample) in samples.enumerated() where abs(sample) > peak / 3 {
            if index - lastLoud > Int(sampleRate / 2) { onsets.append(Double(index) / sampleRate) }
            lastLoud = index
        }
        return onsets
    }
}
