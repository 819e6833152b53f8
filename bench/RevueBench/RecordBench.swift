import JobSpec
import CFFmpeg
import Encode
import Fixture
import Foundation
import Ingest
import Layout
import LibAV
import Outputs
import Pipeline
import Platform

/// `bench/record-vs-ffmpeg`: the same fixture recorded by `revue record` and by the ffmpeg
/// command a user would write for the same output, both as child processes, in alternating
/// pairs, for the fixture as it is (start-up included) and looped to about 60 s.
///
/// The reference decodes the same streams (extracted to files first) with ffmpeg's default
/// decoders, crops and scales each to its tile with the `scale` filter's default scaler, places
/// the tiles with `xstack` and `pad`, mixes with `amix`, and encodes with libx264 `veryfast` at
/// the same bitrate, VBV, GOP and lookahead, AAC 128k, into a faststart MP4. Every other setting
/// (threads included) is ffmpeg's default; `--x264-one-thread` adds the same reference with
/// `-threads 1` on the encoder, as Revue runs x264, to show what that choice is worth. For the looped case the files hold the streams that many
/// times over (`-stream_loop` would be the natural flag, but ffmpeg 5.1 plays a raw H.264 file
/// once whatever it says, and the reference would decode and scale a sixth of the video), and
/// Revue loops back to back (`--loop-gap 0`), so both make the same media from the same packets.
enum RecordBench {
    /// One contestant: a name and the command for `passes` passes over the fixture.
    struct Contestant {
        let name: String
        let command: (_ passes: Int, _ output: String) -> (String, [String])
    }

    struct Mode {
        let name: String
        let passes: Int
    }

    static func run(fixtureDirectory: String, revue: String, runs: Int, libvpxReference: Bool, oneThreadReference: Bool,
                    baseline: String?) throws
    {
        let fixture = try Fixture(directory: fixtureDirectory)
        let work = NSTemporaryDirectory() + "revue-record-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { if ProcessInfo.processInfo.environment["REVUE_BENCH_KEEP"] == nil { try? FileManager.default.removeItem(atPath: work) } }
        LibAVLog.setLevel()
        let loopedPasses = max(1, Int((60 / fixture.captureDuration).rounded()))
        let inputs = [1: try extract(fixture, repeats: 1, to: work + "/1"), loopedPasses: try extract(fixture, repeats: loopedPasses, to: work + "/\(loopedPasses)")]
        let preset = OutputPreset.preset(for: RecordingConfig())

        var contestants = [Contestant(name: "Revue") { passes, output in revueCommand(revue, fixtureDirectory, passes, output) }]
        if let baseline {
            contestants.append(Contestant(name: "baseline") { passes, output in revueCommand(baseline, fixtureDirectory, passes, output) })
        }
        contestants.append(Contestant(name: "ffmpeg") { passes, output in
            ("ffmpeg", ffmpegArguments(fixture, inputs[passes] ?? Extracted(), flavour: .defaults) + [output])
        })
        if oneThreadReference {
            contestants.append(Contestant(name: "ffmpeg x264 threads=1") { passes, output in
                ("ffmpeg", ffmpegArguments(fixture, inputs[passes] ?? Extracted(), flavour: .defaults) + ["-threads:v", "1", output])
            })
        }
        if libvpxReference {
            contestants.append(Contestant(name: "ffmpeg libvpx+bilinear") { passes, output in
                ("ffmpeg", ffmpegArguments(fixture, inputs[passes] ?? Extracted(), flavour: .libvpxBilinear) + [output])
            })
        }
        let modes = [Mode(name: "as it is", passes: 1), Mode(name: "looped to \(String(format: "%.0f", Double(loopedPasses) * fixture.captureDuration)) s", passes: loopedPasses)]

        print(String(format: "record-vs-ffmpeg: %@ at %@, %d alternating runs per mode; Revue %@", fixtureDirectory,
                     preset.size.description, runs, revue))
        for mode in modes {
            var seconds = [[Double]](repeating: [], count: contestants.count)
            var loads: [Double] = []
            var durations = [Double](repeating: 0, count: contestants.count)
            for run in 0..<runs {
                loads.append(loadAverage())
                // Alternate who goes first, so neither always runs on a warm cache or in a quiet moment.
                let order = run % 2 == 0 ? Array(contestants.indices) : contestants.indices.reversed()
                for index in order {
                    let output = work + "/\(index)-\(run).mp4"
                    let (executable, arguments) = contestants[index].command(mode.passes, output)
                    let before = CPUTime.ofChildren()
                    let result = try Subprocess.run(executable, arguments)
                    guard result.succeeded else {
                        throw BenchError("\(contestants[index].name) failed (\(result.termination)): \(result.standardError)\n"
                            + ([executable] + arguments).joined(separator: " "))
                    }
                    seconds[index].append(CPUTime.ofChildren() - before)
                    if run == 0 { durations[index] = MediaInfo.probe(output)?.duration ?? 0 }
                }
                loads.append(loadAverage())
            }
            print("  \(mode.name) (\(mode.passes) pass\(mode.passes == 1 ? "" : "es")), 1-minute load \(String(format: "%.2f", loads.min() ?? 0))–\(String(format: "%.2f", loads.max() ?? 0))")
            let reference = contestants.firstIndex { $0.name == "ffmpeg" } ?? 0
            for index in contestants.indices {
                let sorted = seconds[index].sorted()
                let median = sorted[sorted.count / 2]
                var line = String(format: "    %-24@ CPU %.2f s median (%.2f–%.2f), %.3f of a core per media second, %.2f s of media",
                                  contestants[index].name, median, sorted.first ?? 0, sorted.last ?? 0, median / max(0.001, durations[index]),
                                  durations[index])
                if index != reference {
                    let ratios = zip(seconds[index], seconds[reference]).map { $0 / $1 }.sorted()
                    line += String(format: "; /ffmpeg per pair: median %.2f, range %.2f–%.2f", ratios[ratios.count / 2], ratios.first ?? 0,
                                   ratios.last ?? 0)
                }
                print(line)
                print("      each run: " + seconds[index].map { String(format: "%.2f", $0) }.joined(separator: " "))
            }
        }
        for contestant in contestants {
            let (executable, arguments) = contestant.command(loopedPasses, "OUT.mp4")
            print("  \(contestant.name): \(executable) \(arguments.joined(separator: " "))")
        }
    }

    static func revueCommand(_ revue: String, _ fixture: String, _ passes: Int, _ output: String) -> (String, [String]) {
        (revue, ["record", "--fixture", fixture, "--output", output, "--loop", "\(passes)", "--loop-gap", "0", "--log-level", "warning"])
    }

    /// The 1-minute load average (/proc/loadavg).
    static func loadAverage() -> Double {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return Double(text.split(separator: " ").first ?? "") ?? 0
    }

    enum Flavour {
        /// What a user would write: default decoders, default scaler, default threads.
        case defaults
        /// The earlier reference: VP8 with libvpx, and bilinear scaling as Revue does.
        case libvpxBilinear
    }

    /// The ffmpeg command for the same layout and output.
    static func ffmpegArguments(_ fixture: Fixture, _ inputs: Extracted, flavour: Flavour) -> [String] {
        let configuration = RecordingConfig()
        let preset = OutputPreset.preset(for: configuration)
        let participants = fixture.manifest.participants.map { LayoutParticipant(id: $0.id, name: $0.name) }
        let layout = LayoutEngine.layout(participants: participants, activeSpeaker: nil,
                                         configuration: LayoutConfiguration(configuration, canvas: preset.size))
        var arguments = ["-nostdin", "-v", "error", "-y"]
        var filters: [String] = []
        var videoLabels: [String] = []
        var positions: [String] = []
        var index = 0
        for participant in fixture.manifest.participants {
            guard let video = inputs.video[participant.id], let tile = layout.tiles.first(where: { $0.participantID == participant.id })
            else { continue }
            switch (video.codec, flavour) {
            case (.vp8, .libvpxBilinear): arguments += ["-c:v", "libvpx", "-i", video.path]
            case (.vp8, .defaults): arguments += ["-i", video.path]
            default: arguments += ["-r", "30", "-i", video.path]
            }
            let placement = ContentPlacement.place(source: Size(width: 640, height: 360), in: tile.rect, mode: .fill)
            let flags = flavour == .libvpxBilinear ? ":flags=bilinear" : ""
            filters.append("[\(index):v]crop=\(placement.crop.width):\(placement.crop.height),scale=\(placement.destination.width):"
                + "\(placement.destination.height)\(flags)[v\(index)]")
            videoLabels.append("[v\(index)]")
            positions.append("\(placement.destination.x)_\(placement.destination.y)")
            index += 1
        }
        var audioLabels: [String] = []
        for participant in fixture.manifest.participants {
            guard let audio = inputs.audio[participant.id] else { continue }
            arguments += ["-i", audio]
            audioLabels.append("[\(index):a]")
            index += 1
        }
        // xstack places the tiles; pad makes the canvas (its top-left is the layout's origin).
        let minX = layout.tiles.map(\.rect.x).min() ?? 0, minY = layout.tiles.map(\.rect.y).min() ?? 0
        filters.append(videoLabels.joined() + "xstack=inputs=\(videoLabels.count):layout=\(positions.map { shift($0, minX, minY) }.joined(separator: "|"))"
            + ":fill=0x26313F,pad=\(preset.size.width):\(preset.size.height):\(minX):\(minY):color=0x17202B,format=yuv420p[v]")
        filters.append(audioLabels.joined() + "amix=inputs=\(audioLabels.count):normalize=0,aresample=48000[a]")
        arguments += ["-filter_complex", filters.joined(separator: ";"), "-map", "[v]", "-map", "[a]",
                      "-c:v", "libx264", "-preset", "veryfast", "-profile:v", "high", "-b:v", "\(preset.videoBitrate)",
                      "-maxrate", "\(preset.videoBitrate * 3 / 2)", "-bufsize", "\(preset.videoBitrate * 2)", "-g", "60",
                      "-keyint_min", "60", "-bf", "0", "-x264-params", OutputPreset.x264Params,
                      "-c:a", "aac", "-b:a", "128k", "-ar", "48000", "-ac", "2", "-movflags", "+faststart"]
        return arguments
    }

    static func shift(_ position: String, _ minX: Int, _ minY: Int) -> String {
        let parts = position.split(separator: "_").compactMap { Int($0) }
        guard parts.count == 2 else { return position }
        return "\(parts[0] - minX)_\(parts[1] - minY)"
    }

    struct Extracted {
        var video: [String: (path: String, codec: TrackInfo.Codec)] = [:]
        var audio: [String: String] = [:]
    }

    /// Writes each participant's video as IVF or Annex B, and audio as Ogg Opus, each stream
    /// `repeats` times over, back to back.
    static func extract(_ fixture: Fixture, repeats: Int, to directory: String) throws -> Extracted {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var session = IngestSession(tracks: fixture.trackInfos)
        var frames: [UInt32: [EncodedFrame]] = [:]
        for packet in fixture.packets {
            for case .frame(let frame) in session.receive(packet.payload, arrival: packet.arrival) {
                frames[frame.track.ssrc, default: []].append(frame)
            }
        }
        for case .frame(let frame) in session.finish() { frames[frame.track.ssrc, default: []].append(frame) }
        var extracted = Extracted()
        for track in fixture.trackInfos {
            let trackFrames = frames[track.ssrc] ?? []
            switch track.codec {
            case .vp8:
                let path = directory + "/\(track.participantID).ivf"
                try ElementaryStream.writeIVF(trackFrames.map(\.data), repeats: repeats, to: path)
                extracted.video[track.participantID] = (path, .vp8)
            case .h264:
                let path = directory + "/\(track.participantID).h264"
                try ElementaryStream.writeAnnexB(trackFrames.map(\.data), repeats: repeats, to: path)
                extracted.video[track.participantID] = (path, .h264)
            case .opus:
                let path = directory + "/\(track.participantID).ogg"
                try writeOggOpus(trackFrames, channels: track.channels, repeats: repeats,
                                 passLength: Int64((fixture.captureDuration * 48_000).rounded()), to: path)
                extracted.audio[track.participantID] = path
            }
        }
        return extracted
    }

    /// Opus packets into an Ogg file, with the OpusHead header (RFC 7845 §5.1); each repeat
    /// starts `passLength` samples after the one before.
    static func writeOggOpus(_ frames: [EncodedFrame], channels: Int, repeats: Int, passLength: Int64, to path: String) throws {
        let muxer = try OutputFormatContext(format: "ogg", url: path)
        guard let parameters = avcodec_parameters_alloc() else { throw BenchError("out of memory") }
        defer {
            var pointer: UnsafeMutablePointer<AVCodecParameters>? = parameters
            avcodec_parameters_free(&pointer)
        }
        parameters.pointee.codec_type = AVMEDIA_TYPE_AUDIO
        parameters.pointee.codec_id = AV_CODEC_ID_OPUS
        parameters.pointee.sample_rate = 48_000
        revue_channel_layout_set_default(&parameters.pointee.ch_layout, Int32(channels))
        let head: [UInt8] = Array("OpusHead".utf8) + [1, UInt8(channels), 0x38, 0x01, 0x80, 0xBB, 0, 0, 0, 0, 0]
        guard let extradata = av_mallocz(head.count + 64)?.assumingMemoryBound(to: UInt8.self) else { throw BenchError("out of memory") }
        extradata.update(from: head, count: head.count)
        parameters.pointee.extradata = extradata
        parameters.pointee.extradata_size = Int32(head.count)
        let timeBase = AVRational(num: 1, den: 48_000)
        try muxer.addStream(parameters: parameters, timeBase: timeBase)
        try muxer.open(url: path)
        let base = frames.map(\.rtpTimestamp).min() ?? 0
        // A pass is at least as long as its packets span (20 ms frames), so passes never overlap.
        let span = max(passLength, (frames.map(\.rtpTimestamp).max() ?? 0) - base + 960)
        var last = Int64.min
        for pass in 0..<Int64(repeats) {
            for frame in frames {
                let packet = try Packet(copying: frame.data)
                packet.pts = frame.rtpTimestamp - base + pass * span
                // Out of order in the capture: the muxer needs increasing times.
                guard packet.pts > last else { continue }
                last = packet.pts
                packet.dts = packet.pts
                try muxer.write(packet, streamIndex: 0, from: timeBase)
            }
        }
        try muxer.finish()
    }
}
