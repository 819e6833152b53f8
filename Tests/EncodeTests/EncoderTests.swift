import Encode
import Foundation
import Layout
import Media
import Outputs
import TestSupport
import Testing

@Suite struct EncoderTests {
    @Test(arguments: [
        (OutputPreset.Quality.low, Orientation.landscape, 854, 480, 1_000_000),
        (.med, .landscape, 1280, 720, 2_500_000),
        (.high, .landscape, 1920, 1080, 4_500_000),
        (.med, .portrait, 720, 1280, 2_500_000),
        (.low, .portrait, 480, 854, 1_000_000),
    ])
    func presetsMatchTheSpec(quality: OutputPreset.Quality, orientation: Orientation, width: Int, height: Int, bitrate: Int) {
        let preset = OutputPreset.preset(quality, orientation: orientation)
        #expect(preset.size == Size(width: width, height: height))
        #expect(preset.videoBitrate == bitrate)
        #expect(preset.framesPerSecond == 30)
        #expect(preset.gopLength == 60)
    }

    @Test func videoHasAKeyframeEveryTwoSecondsAndNoBFrames() throws {
        let preset = OutputPreset.preset(.low)
        let encoder = try VideoEncoder(preset: preset)
        var packets: [EncodedPacket] = []
        for index in 0..<150 {
            let shade = UInt8(16 + index % 200)
            packets += try encoder.encode(VideoFrame(width: 854, height: 480, color: YUVColor(y: shade, u: 128, v: 128)))
        }
        packets += try encoder.finish()
        #expect(packets.count == 150)
        #expect(packets.filter(\.isKeyframe).map(\.pts) == [0, 60, 120])
        #expect(packets.allSatisfy { $0.pts == $0.dts })
        #expect(packets.map(\.pts) == (0..<150).map(Int64.init))
    }

    @Test func audioIsAACFramesOf1024WithItsPrimingBeforeTheStart() throws {
        let encoder = try AudioEncoder()
        #expect(encoder.frameSize == 1024)
        #expect(encoder.primingSamples == 1024)
        var packets: [EncodedPacket] = []
        for block in 0..<10 {
            packets += try encoder.encode(interleaved: [Float](repeating: 0.1, count: 2048), startSample: block == 0 ? 1024 : nil)
        }
        packets += try encoder.finish()
        // Starting the input at the priming keeps the first packet at time 0.
        #expect(packets.first?.pts == 0)
        #expect(packets.allSatisfy { $0.pts >= 0 })
    }

    @Test func anMP4OutputIsFaststartAndPlays() throws {
        let directory = try TemporaryDirectory(prefix: "mp4")
        let video = try VideoEncoder(preset: OutputPreset.preset(.low))
        let audio = try AudioEncoder()
        let output = try MP4FileOutput(path: directory.file("out.mp4"), streams: StreamLayout(streams: [
            .init(kind: .video, parameters: video.parameters), .init(kind: .audio, parameters: audio.parameters),
        ]))
        for index in 0..<60 {
            for packet in try video.encode(VideoFrame(width: 854, height: 480, color: YUVColor(y: UInt8(20 + index), u: 100, v: 150))) {
                try output.write(packet)
            }
        }
        for block in 0..<94 {
            for packet in try audio.encode(interleaved: [Float](repeating: 0, count: 2048), startSample: block == 0 ? 1024 : nil) {
                try output.write(packet)
            }
        }
        for packet in try video.finish() + audio.finish() { try output.write(packet) }
        try output.finish()
        let probe = try MediaProbe.probe(directory.file("out.mp4"))
        #expect(probe.video?.width == 854)
        #expect(probe.audio?.sampleRate == "48000")
        #expect(abs((probe.format.durationSeconds ?? 0) - 2) < 0.05)
        #expect(try Tool.decodeFully(directory.file("out.mp4")).status == 0)
        #expect(try MP4Boxes.topLevel(directory.file("out.mp4")).prefix(3) == ["ftyp", "moov", "free"])
        #expect(!FileManager.default.fileExists(atPath: output.recordingPath))
    }
}
