import Decode
import Encode
import Foundation
import Media
import RTP
import TestSupport
import Testing

/// The publisher's H.264 encoder, checked by the recorder's decoder: Constrained Baseline with
/// parameter sets in band before each IDR picture, an IDR picture when asked, and a bitrate that
/// changes between pictures.
@Suite struct H264EncoderTests {
    /// A picture with a moving grey band and noise in one corner, so interframes carry something
    /// and the rate control has work to do.
    static func picture(_ index: Int, width: Int = 320, height: Int = 180, colour: YUVColor, noise: inout SeededGenerator) -> VideoFrame {
        var picture = VideoFrame(width: width, height: height, color: colour)
        for row in 80..<100 { for column in 0..<40 { picture.y[row * width + (column + index * 4) % width] = 128 } }
        for row in 0..<height / 2 { for column in 0..<width / 2 { picture.y[row * width + column] = .random(in: 64...192, using: &noise) } }
        return picture
    }

    static func nalTypes(_ data: [UInt8]) -> [UInt8] { H264Depacketizer.nalUnitRanges(data).map { data[$0.lowerBound] & 0x1F } }

    @Test func idrPicturesCarryTheirParameterSetsAndDecode() throws {
        let encoder = try H264Encoder(settings: .init(width: 320, height: 180, bitrate: 300_000, keyframeInterval: 30))
        #expect(encoder.encodingName == "H264")
        let decoder = try H264Decoder()
        let colour = YUVColor(rgb: 0x3060D0)
        var noise = SeededGenerator(seed: 1)
        var keyframes: [Int] = []
        var decoded: VideoFrame?
        for index in 0..<40 {
            let frame = try #require(try encoder.encode(Self.picture(index, colour: colour, noise: &noise), forceKeyframe: index == 35),
                                     "zerolatency holds no picture back")
            let types = Self.nalTypes(frame.data)
            if frame.isKeyframe {
                keyframes.append(index)
                // SPS and PPS in front of the IDR slice (x264 writes an SEI with its version on the first).
                #expect(types.first == 7 && types.contains(8) && types.last == 5, "\(types)")
                let sps = try #require(H264Depacketizer.nalUnitRanges(frame.data).first.map { Array(frame.data[$0]) })
                // profile_idc 66 (Baseline) with constraint_set1: Constrained Baseline; level 3 for 320x180.
                #expect(sps[1] == 66 && sps[2] & 0x40 != 0, "profile \(sps[1]) constraints \(String(sps[2], radix: 2))")
            } else {
                #expect(!types.contains(7) && !types.contains(5) && types.contains(1), "\(types)")
            }
            decoded = try decoder.decode(frame.data, mediaTime: 0).last ?? decoded
        }
        // The first picture, each interval, and the one asked for (an IDR, forced-idr).
        #expect(keyframes == [0, 30, 35], "\(keyframes)")
        #expect(encoder.framesEncoded == 40 && encoder.keyframesEncoded == 3)
        let picture = try #require(decoded)
        #expect(picture.width == 320 && picture.height == 180)
        #expect(picture.pixel(x: 240, y: 40).distance(to: colour) < 8, "\(picture.pixel(x: 240, y: 40))")
    }

    @Test func aDecoderCanStartAtAForcedKeyframe() throws {
        let encoder = try H264Encoder(settings: .init(width: 320, height: 180, bitrate: 300_000))
        var noise = SeededGenerator(seed: 2)
        for index in 0..<10 { _ = try encoder.encode(Self.picture(index, colour: .black, noise: &noise), forceKeyframe: false) }
        let key = try #require(try encoder.encode(Self.picture(10, colour: YUVColor(rgb: 0xD02020), noise: &noise), forceKeyframe: true))
        #expect(key.isKeyframe)
        // A subscriber that joins now gets this picture first, and decodes it alone.
        let late = try H264Decoder()
        let pictures = try late.decode(key.data, mediaTime: 0)
        #expect(pictures.count == 1)
        #expect(try #require(pictures.first).pixel(x: 240, y: 40).distance(to: YUVColor(rgb: 0xD02020)) < 10)
    }

    @Test func level31For720p30() throws {
        let encoder = try H264Encoder(settings: .init(width: 1280, height: 720, bitrate: 1_500_000))
        let frame = try #require(try encoder.encode(VideoFrame(width: 1280, height: 720, color: .black), forceKeyframe: false))
        let sps = try #require(H264Depacketizer.nalUnitRanges(frame.data).first.map { Array(frame.data[$0]) })
        #expect(sps[0] & 0x1F == 7 && sps[1] == 66 && sps[3] == 31, "\(sps.prefix(4))")
    }

    /// A lower target from the next picture on: the second second of noise costs well under half
    /// the bytes of the first, with no keyframe in between.
    @Test func theBitrateChangesBetweenPictures() throws {
        let encoder = try H264Encoder(settings: .init(width: 320, height: 180, bitrate: 800_000))
        var noise = SeededGenerator(seed: 3)
        var bytes = [0, 0]
        for index in 0..<120 {
            if index == 60 {
                try encoder.setBitrate(150_000)
                #expect(encoder.bitrate == 150_000)
            }
            let frame = try #require(try encoder.encode(Self.picture(index, colour: .black, noise: &noise), forceKeyframe: false))
            // The first 30 pictures of each half let the rate control settle.
            if index % 60 >= 30 { bytes[index / 60] += frame.data.count }
        }
        let before = Double(bytes[0]) * 8, after = Double(bytes[1]) * 8
        print("measured: H.264 \(Int(before)) b/s at 800 kb/s, \(Int(after)) b/s after setBitrate(150 kb/s)")
        #expect(after < before * 0.4, "\(before) → \(after) b/s")
        #expect(after < 150_000 * 1.3 && before > 400_000)
        #expect(encoder.keyframesEncoded == 1)
        #expect(throws: EncodeError.self) { try encoder.setBitrate(5) }
    }

    @Test func vp8TooChangesItsBitrate() throws {
        let encoder = try VP8Encoder(settings: .init(width: 320, height: 180, bitrate: 800_000))
        var noise = SeededGenerator(seed: 4)
        var bytes = [0, 0]
        for index in 0..<120 {
            if index == 60 { try encoder.setBitrate(150_000) }
            let frame = try #require(try encoder.encode(Self.picture(index, colour: .black, noise: &noise)))
            if index % 60 >= 30 { bytes[index / 60] += frame.data.count }
        }
        print("measured: VP8 \(bytes[0] * 8) b/s at 800 kb/s, \(bytes[1] * 8) b/s after setBitrate(150 kb/s)")
        // libvpx's CBR cannot go below what its highest quantizer (56) makes of this noise, so
        // it stops short of the new target; it must still fall well below the old one.
        #expect(Double(bytes[1]) < Double(bytes[0]) * 0.6, "\(bytes)")
        #expect(encoder.bitrate == 150_000)
    }

    @Test func unusableSettingsAndPicturesAreRefused() throws {
        #expect(throws: EncodeError.self) { try H264Encoder(settings: .init(width: 321, height: 180, bitrate: 300_000)) }
        let encoder = try H264Encoder(settings: .init(width: 320, height: 180, bitrate: 300_000))
        #expect(throws: EncodeError.self) { try encoder.encode(VideoFrame(width: 640, height: 360), forceKeyframe: false) }
    }
}
