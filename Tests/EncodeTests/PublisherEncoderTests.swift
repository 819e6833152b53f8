import Decode
import Encode
import Foundation
import Media
import TestSupport
import Testing

/// The publisher's encoders, checked by the recorder's decoders: what VP8Encoder and
/// OpusEncoder make decodes to the picture and the tone that went in.
@Suite struct PublisherEncoderTests {
    @Test func vp8DecodesToThePictureThatWentIn() throws {
        let encoder = try VP8Encoder(settings: .init(width: 320, height: 180, bitrate: 300_000, keyframeInterval: 30))
        let decoder = try VP8Decoder()
        let colour = YUVColor(rgb: 0x3060D0)
        var decoded: VideoFrame?
        var keyframes: [Int] = []
        for index in 0..<40 {
            var picture = VideoFrame(width: 320, height: 180, color: colour)
            // A moving grey band, so interframes carry something.
            for row in 80..<100 { for column in 0..<40 { picture.y[row * 320 + (column + index * 4) % 320] = 128 } }
            let frame = try #require(try encoder.encode(picture, forceKeyframe: index == 35))
            if frame.isKeyframe { keyframes.append(index) }
            decoded = try decoder.decode(frame.data, mediaTime: 0) ?? decoded
        }
        // The first picture, each interval, and the one asked for.
        #expect(keyframes == [0, 30, 35], "\(keyframes)")
        #expect(encoder.framesEncoded == 40 && encoder.keyframesEncoded == 3)
        let picture = try #require(decoded)
        #expect(picture.width == 320 && picture.height == 180)
        #expect(picture.pixel(x: 160, y: 20).distance(to: colour) < 6, "\(picture.pixel(x: 160, y: 20))")
    }

    @Test func vp8RefusesAPictureOfAnotherSize() throws {
        let encoder = try VP8Encoder(settings: .init(width: 320, height: 180, bitrate: 300_000))
        #expect(throws: EncodeError.self) { try encoder.encode(VideoFrame(width: 640, height: 360)) }
        #expect(throws: EncodeError.self) { try VP8Encoder(settings: .init(width: 321, height: 180, bitrate: 300_000)) }
    }

    @Test func opusDecodesToTheToneThatWentIn() throws {
        let encoder = try OpusEncoder(channels: 1, bitrate: 32_000)
        let decoder = try OpusDecoder(channels: 1)
        var decoded: [Float] = []
        for frame in 0..<50 {
            let samples = (0..<960).map { Float(0.3 * sin(2 * Double.pi * 440 * Double(frame * 960 + $0) / 48_000)) }
            let packet = try encoder.encode(samples)
            #expect(packet.count > 1 && packet.count < 400)
            decoded += try decoder.decode(packet, mediaTime: 0).samples
        }
        #expect(decoded.count == 48_000)
        let tail = decoded[9_600...]
        #expect(Goertzel.prominence(of: tail, frequency: 440) > 10)
        #expect(throws: EncodeError.self) { try encoder.encode([0, 0, 0]) }
    }
}
