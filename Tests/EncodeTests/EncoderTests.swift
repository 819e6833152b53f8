import JobSpec
import Encode
import Foundation
import Layout
import Media
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
}
