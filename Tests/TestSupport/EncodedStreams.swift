import JobSpec
import Foundation
import Encode
import Media
import Outputs

/// Short encoded test streams for output tests: a changing colour and a tone, encoded once.
public final class EncodedStreams: @unchecked Sendable {
    public let video: VideoEncoder
    public let audio: AudioEncoder
    /// The packets, in time order (video and audio interleaved).
    public private(set) var packets: [EncodedPacket] = []

    /// `keyframes`: pictures encoded as keyframes beyond the encoder's every two seconds.
    public init(seconds: Double, quality: OutputPreset.Quality = .low, keyframes: Set<Int> = []) throws {
        video = try VideoEncoder(preset: OutputPreset.preset(quality))
        audio = try AudioEncoder()
        let size = video.preset.size
        let frames = Int(seconds * 30)
        var videoPackets: [EncodedPacket] = []
        for index in 0..<frames {
            let shade = UInt8(16 + (index * 7) % 200)
            videoPackets += try video.encode(VideoFrame(width: size.width, height: size.height, color: YUVColor(y: shade, u: 90, v: 160)),
                                             forceKeyframe: keyframes.contains(index))
        }
        videoPackets += try video.finish()
        var audioPackets: [EncodedPacket] = []
        let blocks = Int(seconds * 48_000 / 1024)
        for block in 0..<blocks {
            var samples = [Float](repeating: 0, count: 2048)
            for index in 0..<1024 {
                let value = Float(0.3 * sin(2 * Double.pi * 440 * Double(block * 1024 + index) / 48_000))
                samples[index * 2] = value
                samples[index * 2 + 1] = value
            }
            audioPackets += try audio.encode(interleaved: samples, startSample: block == 0 ? 1024 : nil)
        }
        audioPackets += try audio.finish()
        packets = (videoPackets + audioPackets).sorted { a, b in
            let ta = Double(a.pts) / (a.stream == .video ? 30 : 48_000)
            let tb = Double(b.pts) / (b.stream == .video ? 30 : 48_000)
            return ta == tb ? a.stream == .video : ta < tb
        }
    }

    public var layout: StreamLayout {
        StreamLayout(streams: [.init(kind: .video, parameters: video.parameters), .init(kind: .audio, parameters: audio.parameters)])
    }

    /// Seconds of a packet.
    public static func time(_ packet: EncodedPacket) -> Double {
        Double(packet.pts) / (packet.stream == .video ? 30 : 48_000)
    }
}
