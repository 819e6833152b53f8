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

/// `bench/record-vs-ffmpeg`: the same fixture rendered by Revue and by ffmpeg doing the same
/// work (decode the same streams from files extracted first, scale, xstack, amix, libx264 with
/// the same preset, bitrate and GOP, and AAC), CPU seconds for each and the ratio.
enum RecordBench {
    static func run(fixtureDirectory: String, runs: Int) throws {
        let fixture = try Fixture(directory: fixtureDirectory)
        let work = NSTemporaryDirectory() + "revue-record-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { if ProcessInfo.processInfo.environment["REVUE_BENCH_KEEP"] == nil { try? FileManager.default.removeItem(atPath: work) } }
        let configuration = RecordingConfig()
        LibAVLog.setLevel()

        // The same streams as files ffmpeg reads, and the layout Revue uses.
        let inputs = try extract(fixture, to: work)
        let participants = fixture.manifest.participants.map { LayoutParticipant(id: $0.id, name: $0.name) }
        let layout = LayoutEngine.layout(participants: participants, activeSpeaker: nil, configuration: LayoutConfiguration(configuration, canvas: OutputPreset.preset(for: configuration).size))
        let preset = OutputPreset.preset(for: configuration)
        var arguments = ["-nostdin", "-v", "error", "-y"]
        var filters: [String] = []
        var videoLabels: [String] = []
        var positions: [String] = []
        var index = 0
        for participant in fixture.manifest.participants {
            guard let video = inputs.video[participant.id], let tile = layout.tiles.first(where: { $0.participantID == participant.id })
            else { continue }
            arguments += video.codec == .vp8 ? ["-c:v", "libvpx", "-i", video.path] : ["-r", "30", "-i", video.path]
            let placement = ContentPlacement.place(source: Size(width: 640, height: 360), in: tile.rect, mode: .fill)
            filters.append("[\(index):v]crop=\(placement.crop.width):\(placement.crop.height),scale=\(placement.destination.width):"
                + "\(placement.destination.height):flags=bilinear[v\(index)]")
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
                      "-keyint_min", "60", "-bf", "0", "-x264-params", "scenecut=0:open-gop=0",
                      "-c:a", "aac", "-b:a", "128k", "-ar", "48000", "-ac", "2", "-movflags", "+faststart"]
        // Revue (in this process) and ffmpeg (a child) take turns, so a change in the machine's
        // speed during the run falls on both alike.
        var mediaSeconds = 0.0
        var revueSeconds = 0.0, ffmpegSeconds = 0.0
        var pairRatios: [Double] = []
        for run in 0..<runs {
            let revue = try CPUTime.measure {
                let pipeline = try RecordingPipeline(config: configuration)
                pipeline.add(sink: try MP4FileOutput(path: work + "/revue-\(run).mp4", streams: pipeline.streams))
                try pipeline.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible)))
                mediaSeconds += Double(pipeline.composer.videoFrames) / 30
            }
            let before = CPUTime.ofChildren()
            let result = try Subprocess.run("ffmpeg", arguments + [work + "/ffmpeg-\(run).mp4"])
            guard result.succeeded else {
                throw BenchError("ffmpeg failed (\(result.termination)): \(result.standardError)\n\(arguments.joined(separator: " "))")
            }
            let ffmpeg = CPUTime.ofChildren() - before
            revueSeconds += revue
            ffmpegSeconds += ffmpeg
            pairRatios.append(revue / ffmpeg)
        }
        pairRatios.sort()
        print(String(format: "record-vs-ffmpeg: %@ at %@, %d runs, %.1f s of media", fixtureDirectory, preset.size.description, runs, mediaSeconds))
        print(String(format: "  Revue  %.2f CPU s (%.3f of a core per second of media; %.2f cores at real time)",
                     revueSeconds, revueSeconds / mediaSeconds, revueSeconds / mediaSeconds))
        print(String(format: "  ffmpeg %.2f CPU s (%.3f of a core per second of media)", ffmpegSeconds, ffmpegSeconds / mediaSeconds))
        print(String(format: "  ratio Revue/ffmpeg = %.2f (median of the %d alternating pairs %.2f, range %.2f–%.2f)",
                     revueSeconds / ffmpegSeconds, runs, pairRatios[pairRatios.count / 2], pairRatios.first ?? 0, pairRatios.last ?? 0))
        print("  ffmpeg " + arguments.joined(separator: " ") + " OUT.mp4")
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

    /// Writes each participant's video as IVF or Annex B, and audio as Ogg Opus.
    static func extract(_ fixture: Fixture, to directory: String) throws -> Extracted {
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
                try ElementaryStream.writeIVF(trackFrames.map(\.data), repeats: 1, to: path)
                extracted.video[track.participantID] = (path, .vp8)
            case .h264:
                let path = directory + "/\(track.participantID).h264"
                try ElementaryStream.writeAnnexB(trackFrames.map(\.data), repeats: 1, to: path)
                extracted.video[track.participantID] = (path, .h264)
            case .opus:
                let path = directory + "/\(track.participantID).ogg"
                try writeOggOpus(trackFrames, channels: track.channels, to: path)
                extracted.audio[track.participantID] = path
            }
        }
        return extracted
    }

    /// Opus packets into an Ogg file, with the OpusHead header (RFC 7845 §5.1).
    static func writeOggOpus(_ frames: [EncodedFrame], channels: Int, to path: String) throws {
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
        let base = frames.first?.rtpTimestamp ?? 0
        for frame in frames {
            let packet = try Packet(copying: frame.data)
            packet.pts = frame.rtpTimestamp - base
            packet.dts = packet.pts
            try muxer.write(packet, streamIndex: 0, from: timeBase)
        }
        try muxer.finish()
    }
}
