import Encode
import Foundation
import Glibc
import LibAV
import Media
import Platform
import Capture
import Publisher

/// `bench/sdk-encode`: what one published 720p30 stream costs on the send path, VP8 and H.264,
/// beside ffmpeg doing the same work with the same encoder library and settings, in alternating
/// pairs in one run.
///
/// Both read the same frames from one y4m file at 1280x720, 30 fps, written once and looped,
/// encode them on one thread, packetize them as RTP and send them to a UDP sink on loopback.
/// Two clips: Revue's test pattern (what the demo's participants and `revue publish` send: a
/// flat colour and a moving square, which the encoders code in a fraction of the target), and
/// ffmpeg's `testsrc2` (moving detail and colour, which fills the target), so the encoders' rate
/// control has work to do too.
/// - Revue: `Y4MFileCamera` → `VP8Encoder` / `H264Encoder` (the publisher's settings) →
///   `MediaSender` (RFC 7741 / RFC 6184 packetizers, mid and abs-send-time extensions, the
///   pacer, the NACK history, sender reports) → `sendto`, in this process, on one thread whose
///   CPU clock is the measure. Media time runs as fast as the work allows (the pacer and the
///   reports are driven by that clock), as ffmpeg runs without `-re`.
/// - ffmpeg: `-stream_loop` over the same file, libvpx or libx264 through the same libavcodec
///   with the same options, its RTP muxer (`-f rtp`, 1,200-byte packets) to another sink, as a
///   child process whose rusage is the measure.
/// Neither protects the packets with SRTP (bench/sfu measures that: 1.6–7 µs a packet).
enum SDKEncodeBench {
    struct Result {
        var cpu: Double
        var packets: Int
        var bytes: Int
    }

    static let size = CameraFormat.h720p_w1280p
    static let bitrate = 1_500_000
    static let keyframeInterval = 300

    static func run(ffmpeg: String, seconds: Double, runs: Int) throws {
        let work = NSTemporaryDirectory() + "revue-sdk-encode-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        LibAVLog.setLevel()
        // Four seconds of each clip (the pattern's square crosses a fifth of the picture), looped.
        let clipFrames = 120
        let frames = Int(seconds * 30)
        let pattern = work + "/pattern.y4m", testsrc = work + "/testsrc2.y4m"
        try writeClip(pattern, frames: clipFrames)
        let made = try Subprocess(ffmpeg, ["-nostdin", "-v", "error", "-f", "lavfi", "-i",
                                           "testsrc2=s=\(size.width)x\(size.height):r=\(size.framesPerSecond):d=\(clipFrames / size.framesPerSecond)",
                                           "-pix_fmt", "yuv420p", testsrc]).wait()
        guard made == .exited(0) else { throw BenchError("ffmpeg could not write testsrc2: \(made)") }
        let clips = [("pattern", pattern), ("testsrc2", testsrc)]
        let sink = try UDPSink()
        defer { sink.stop() }
        var load = [Double](repeating: 0, count: 3)
        getloadavg(&load, 3)
        print(String(format: "sdk-encode: %dx%d %d fps, %d frames (%.0f s of media) a run, %d kb/s, a keyframe every %d frames; load before %.2f %.2f %.2f",
                     size.width, size.height, size.framesPerSecond, frames, seconds, bitrate / 1000, keyframeInterval, load[0], load[1], load[2]))
        var table: [String: [Result]] = [:]
        for run in 1...runs {
            for (content, clip) in clips {
                let camera = try Y4MFileCamera(path: clip)
                for codec in PublishedVideoCodec.allCases {
                    let revue = try revueRun(codec, camera: camera, frames: frames, sink: sink)
                    let reference = try ffmpegRun(ffmpeg, codec, clip: clip, loops: (frames + clipFrames - 1) / clipFrames, frames: frames, sink: sink)
                    table["\(content) \(codec) revue", default: []].append(revue)
                    table["\(content) \(codec) ffmpeg", default: []].append(reference)
                    print(String(format: "run %d %@ %@: Revue %.2f s CPU (%d packets, %.0f kb/s), ffmpeg %.2f s CPU (%d packets, %.0f kb/s): %.2fx",
                                 run, content, codec.encodingName, revue.cpu, revue.packets, Double(revue.bytes) * 8 / seconds / 1000, reference.cpu,
                                 reference.packets, Double(reference.bytes) * 8 / seconds / 1000, revue.cpu / reference.cpu))
                }
            }
        }
        getloadavg(&load, 3)
        print("")
        print("| clip | stream | Revue: cores per stream | ffmpeg: cores per stream | Revue / ffmpeg (median, range) | sent by Revue, ffmpeg |")
        print("|---|---|---|---|---|---|")
        for (content, _) in clips {
            for codec in PublishedVideoCodec.allCases {
                let revue = table["\(content) \(codec) revue"] ?? [], reference = table["\(content) \(codec) ffmpeg"] ?? []
                let ratios = zip(revue, reference).map { $0.cpu / $1.cpu }.sorted()
                let revueCores = median(revue.map(\.cpu)) / seconds, referenceCores = median(reference.map(\.cpu)) / seconds
                let revueRate = median(revue.map { Double($0.bytes) }) * 8 / seconds / 1000
                let referenceRate = median(reference.map { Double($0.bytes) }) * 8 / seconds / 1000
                print(String(format: "| %@ | 720p30 %@ | %.3f | %.3f | %.2fx (%.2f–%.2f) | %.0f kb/s, %.0f kb/s |", content, codec.encodingName, revueCores,
                             referenceCores, median(ratios), ratios.first ?? 0, ratios.last ?? 0, revueRate, referenceRate))
            }
        }
        print(String(format: "load after %.2f %.2f %.2f", load[0], load[1], load[2]))
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// The publisher's test pattern as y4m (`YUV4MPEG2 … C420jpeg`-less 4:2:0, as ffmpeg writes).
    static func writeClip(_ path: String, frames: Int) throws {
        let pattern = try TestPatternCamera(name: "Bench", rgb: 0x2040D0, format: size)
        guard let file = FileHandle(forWritingAtPath: path) ?? (FileManager.default.createFile(atPath: path, contents: nil) ? FileHandle(forWritingAtPath: path) : nil)
        else { throw BenchError("cannot write \(path)") }
        defer { try? file.close() }
        file.write(Data("YUV4MPEG2 W\(size.width) H\(size.height) F\(size.framesPerSecond):1 Ip A1:1 C420mpeg2\n".utf8))
        for index in 0..<frames {
            let picture = pattern.frame(index)
            file.write(Data("FRAME\n".utf8))
            file.write(Data(picture.y))
            file.write(Data(picture.u))
            file.write(Data(picture.v))
        }
    }

    /// Revue's send path for `frames` pictures, on this thread.
    static func revueRun(_ codec: PublishedVideoCodec, camera: Y4MFileCamera, frames: Int, sink: UDPSink) throws -> Result {
        let encoder: any RealTimeVideoEncoder
        switch codec {
        case .vp8:
            encoder = try VP8Encoder(settings: .init(width: size.width, height: size.height, bitrate: bitrate, keyframeInterval: keyframeInterval))
        case .h264:
            encoder = try H264Encoder(settings: .init(width: size.width, height: size.height, bitrate: bitrate, keyframeInterval: keyframeInterval))
        }
        let track = SendTrack(codec: codec == .vp8 ? .vp8 : .h264, ssrc: 0x1234_5678, payloadType: codec == .vp8 ? 96 : 102, rtxSSRC: 0x2345_6789,
                              rtxPayloadType: codec == .vp8 ? 97 : 103, mid: "1", midExtensionID: 1, absSendTimeExtensionID: 3)
        // The publisher's pacing: 2.5 times the video and audio rates.
        var sender = MediaSender(tracks: [track], cname: "bench", origin: 0, wallClock: Date().timeIntervalSince1970,
                                 pacingBitsPerSecond: 2.5 * Double(bitrate + 32_000))
        let socket = try UDPSinkSocket(to: sink.port)
        let before = sink.counts
        let start = ThreadCPUClock.now()
        for index in 0..<frames {
            let now = Double(index) / Double(size.framesPerSecond)
            if let frame = try encoder.encode(camera.frame(index), forceKeyframe: false) {
                sender.send(frame: frame.data, ssrc: track.ssrc, mediaTime: now)
            }
            // Drain the pacer as its clock allows, up to the next picture's time.
            var clock = now
            let next = Double(index + 1) / Double(size.framesPerSecond)
            while true {
                for action in sender.poll(now: clock) {
                    switch action {
                    case .sendRTP(let bytes), .sendRTCP(let bytes): socket.send(bytes)
                    case .keyframeRequested: break
                    }
                }
                guard let deadline = sender.nextDeadline(now: clock), deadline < next else { break }
                clock = max(clock + 0.000_1, deadline)
            }
        }
        let cpu = ThreadCPUClock.now() - start
        let after = sink.settle(from: before)
        return Result(cpu: cpu, packets: after.packets, bytes: after.bytes)
    }

    /// The same frames through ffmpeg, with the same encoder options, to the sink as RTP.
    static func ffmpegRun(_ ffmpeg: String, _ codec: PublishedVideoCodec, clip: String, loops: Int, frames: Int, sink: UDPSink) throws -> Result {
        var arguments = ["-nostdin", "-v", "error", "-stream_loop", "\(max(0, loops - 1))", "-i", clip, "-frames:v", "\(frames)", "-an", "-threads", "1"]
        switch codec {
        case .vp8:
            // VP8Encoder's settings as libavcodec's libvpx options: CBR at the rate (minrate =
            // maxrate = b), a 1 s buffer starting at 0.5 s, quantizers 4–56, undershoot 100 %,
            // overshoot 15 %, no lag, error resilient, cpu-used -8, static threshold 1, no noise
            // sensitivity, no frame dropping.
            let rate = "\(bitrate / 1000)k"
            arguments += ["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "-8", "-b:v", rate, "-minrate", rate, "-maxrate", rate,
                          "-bufsize", rate, "-rc_init_occupancy", "\(bitrate / 2000)k", "-qmin", "4", "-qmax", "56", "-undershoot-pct", "100",
                          "-overshoot-pct", "15", "-lag-in-frames", "0", "-error-resilient", "default", "-static-thresh", "1",
                          "-noise-sensitivity", "0", "-drop-threshold", "0", "-g", "\(keyframeInterval)", "-keyint_min", "0", "-auto-alt-ref", "0"]
        case .h264:
            // H264Encoder's settings, from the same table it opens libx264 with.
            let settings = H264Encoder.Settings(width: size.width, height: size.height, bitrate: bitrate, keyframeInterval: keyframeInterval)
            let options = settings.x264Options
            let rate = "\(bitrate / 1000)k"
            arguments += ["-c:v", "libx264", "-b:v", rate, "-maxrate", rate, "-bufsize", rate, "-g", "\(keyframeInterval)", "-bf", "0"]
            for key in options.keys.sorted() { arguments += ["-\(key)", options[key] ?? ""] }
        }
        arguments += ["-f", "rtp", "-payload_type", codec == .vp8 ? "96" : "102", "rtp://127.0.0.1:\(sink.port)?pkt_size=1200"]
        let before = sink.counts
        let cpuBefore = CPUTime.ofChildren()
        let process = try Subprocess(ffmpeg, arguments, standardOutput: .discard)
        let termination = process.wait()
        guard termination == .exited(0) else { throw BenchError("ffmpeg \(arguments.joined(separator: " ")) ended with \(termination)") }
        let cpu = CPUTime.ofChildren() - cpuBefore
        let after = sink.settle(from: before)
        return Result(cpu: cpu, packets: after.packets, bytes: after.bytes)
    }
}
