import Decode
import Encode
import Media
import TestSupport
import Testing

/// The SDK's VP8 publish settings on libvpx: exact keyframe intervals, the three rate control
/// modes, the quantizer range and CQ level, temporal layers a receiver can drop, and settings
/// changed on a running encoder.
@Suite struct VP8EncoderSettingsTests {
    /// 60 frames (2 s at 30 fps) of `H264EncoderTests.picture`: a moving band and a quarter of
    /// fresh noise each frame. Returns each frame's size in bytes.
    static func encode(_ settings: VP8Encoder.Settings, frames: Int = 60, seed: UInt64 = 9) throws -> [Int] {
        let encoder = try VP8Encoder(settings: settings)
        var noise = SeededGenerator(seed: seed)
        var sizes: [Int] = []
        for index in 0..<frames {
            let picture = H264EncoderTests.picture(index, width: settings.width, height: settings.height, colour: YUVColor(rgb: 0x3060D0),
                                                   noise: &noise)
            sizes.append(try #require(try encoder.encode(picture)).data.count)
        }
        return sizes
    }

    static func keyframes(_ settings: VP8Encoder.Settings, frames: Int, forcing forced: Set<Int> = []) throws -> [Int] {
        let encoder = try VP8Encoder(settings: settings)
        var noise = SeededGenerator(seed: 1)
        var keyframes: [Int] = []
        for index in 0..<frames {
            let frame = try #require(try encoder.encode(H264EncoderTests.picture(index, colour: .black, noise: &noise),
                                                        forceKeyframe: forced.contains(index)))
            if frame.isKeyframe { keyframes.append(index) }
        }
        return keyframes
    }

    @Test func keyframeInterval1MakesEveryFrameAKeyframe() throws {
        let keyframes = try Self.keyframes(.init(width: 320, height: 180, bitrate: 1_000_000, keyframeInterval: 1), frames: 30)
        #expect(keyframes == Array(0..<30))
    }

    /// Frame n is a keyframe when n % 15 == 0, and a keyframe asked for in between (a PLI)
    /// moves none of the later ones.
    @Test func keyframesFallExactlyOnTheInterval() throws {
        let settings = VP8Encoder.Settings(width: 320, height: 180, bitrate: 500_000, keyframeInterval: 15)
        #expect(try Self.keyframes(settings, frames: 31) == [0, 15, 30])
        #expect(try Self.keyframes(settings, frames: 46, forcing: [20]) == [0, 15, 20, 30, 45])
    }

    @Test func eachRateControlModeEncodesAndCBRKeepsToItsTarget() throws {
        let target = 1_500_000
        var bits: [VP8Encoder.RateControl: Int] = [:]
        for mode in VP8Encoder.RateControl.allCases {
            let sizes = try Self.encode(.init(width: 640, height: 360, bitrate: target, rateControl: mode))
            #expect(sizes.count == 60 && sizes.allSatisfy { $0 > 0 })
            // 60 frames are 2 s: bits / 2 is the rate.
            bits[mode] = sizes.reduce(0, +) * 8 / 2
        }
        print("measured: VP8 640x360 noise at 1500 kb/s: vbr \(bits[.vbr] ?? 0) b/s, cbr \(bits[.cbr] ?? 0) b/s, cq \(bits[.cq] ?? 0) b/s")
        let cbr = Double(bits[.cbr] ?? 0)
        #expect(cbr > Double(target) * 0.8 && cbr < Double(target) * 1.2, "\(cbr) b/s against \(target)")
    }

    @Test func aLowerCQLevelMakesLargerFrames() throws {
        func bytes(_ level: Int) throws -> Int {
            try Self.encode(.init(width: 640, height: 360, bitrate: 8_000_000, rateControl: .cq, cqLevel: level)).reduce(0, +)
        }
        let sharp = try bytes(10), coarse = try bytes(50)
        print("measured: VP8 cq at 8 Mb/s over 2 s: cqLevel 10 \(sharp) B, cqLevel 50 \(coarse) B")
        #expect(sharp > coarse * 3 / 2, "\(sharp) B against \(coarse) B")
    }

    /// A CQ level outside the quantizer range is taken into it: libvpx would fail the encode.
    @Test func aCQLevelOutsideTheQuantizersIsClamped() throws {
        let sizes = try Self.encode(.init(width: 320, height: 180, bitrate: 1_000_000, rateControl: .cq, quantizerMin: 30, quantizerMax: 40,
                                          cqLevel: 5), frames: 5)
        #expect(sizes.count == 5)
    }

    @Test func coarseQuantizersMakeSmallerFrames() throws {
        let coarse = try Self.encode(.init(width: 640, height: 360, bitrate: 1_500_000, quantizerMin: 50, quantizerMax: 63)).reduce(0, +)
        let fine = try Self.encode(.init(width: 640, height: 360, bitrate: 1_500_000, quantizerMin: 4, quantizerMax: 20)).reduce(0, +)
        print("measured: VP8 640x360 over 2 s: quantizers 50…63 \(coarse) B, 4…20 \(fine) B")
        #expect(coarse < fine, "\(coarse) B against \(fine) B")
    }

    @Test(arguments: [
        ("quantizerMin above quantizerMax", VP8Encoder.Settings(width: 320, height: 180, bitrate: 500_000, quantizerMin: 30, quantizerMax: 20)),
        ("quantizerMax 64", VP8Encoder.Settings(width: 320, height: 180, bitrate: 500_000, quantizerMax: 64)),
        ("quantizerMin -1", VP8Encoder.Settings(width: 320, height: 180, bitrate: 500_000, quantizerMin: -1)),
        ("cqLevel 64", VP8Encoder.Settings(width: 320, height: 180, bitrate: 500_000, cqLevel: 64)),
        ("cpuUsed 17", VP8Encoder.Settings(width: 320, height: 180, bitrate: 500_000, cpuUsed: 17)),
        ("keyframeInterval 0", VP8Encoder.Settings(width: 320, height: 180, bitrate: 500_000, keyframeInterval: 0)),
        ("4 temporal layers", VP8Encoder.Settings(width: 320, height: 180, bitrate: 500_000, temporalLayers: 4)),
        ("0 temporal layers", VP8Encoder.Settings(width: 320, height: 180, bitrate: 500_000, temporalLayers: 0)),
    ])
    func unusableSettingsAreRefused(name: String, settings: VP8Encoder.Settings) {
        #expect(throws: EncodeError.self, "\(name)") { try VP8Encoder(settings: settings) }
    }

    // MARK: - Temporal layers

    struct Layered {
        var frames: [EncodedVideoFrame] = []
        var pictures: [VideoFrame] = []
    }

    /// `count` frames of a moving, noisy picture through an encoder with `layers` temporal
    /// layers, the keyframes in `forced` asked for.
    static func layered(_ layers: Int, count: Int, forced: Set<Int> = []) throws -> Layered {
        let encoder = try VP8Encoder(settings: .init(width: 320, height: 180, bitrate: 600_000, temporalLayers: layers))
        var noise = SeededGenerator(seed: 5)
        var result = Layered()
        for index in 0..<count {
            let picture = H264EncoderTests.picture(index, colour: YUVColor(rgb: 0x3060D0), noise: &noise)
            result.pictures.append(picture)
            result.frames.append(try #require(try encoder.encode(picture, forceKeyframe: forced.contains(index))))
        }
        return result
    }

    @Test func twoLayersAlternateAndEveryUpperFrameIsASyncFrame() throws {
        let stream = try Self.layered(2, count: 12)
        #expect(stream.frames.map(\.temporalLayerID) == (0..<12).map { UInt8($0 % 2) })
        // The keyframe, then each TL1 frame (it references the TL0 frame alone); TL0 frames not.
        #expect(stream.frames.map(\.layerSync) == (0..<12).map { $0 == 0 || $0 % 2 == 1 })
        #expect(stream.frames.map(\.isKeyframe) == (0..<12).map { $0 == 0 })
    }

    @Test func threeLayersFollow0212AndAKeyframeRestartsThePattern() throws {
        let stream = try Self.layered(3, count: 14, forced: [6])
        let ids = stream.frames.map { Int($0.temporalLayerID ?? 9) }
        #expect(ids == [0, 2, 1, 2, 0, 2, /* keyframe */ 0, 2, 1, 2, 0, 2, 1, 2], "\(ids)")
        // In each period the first TL2 frame and the TL1 frame rest on the TL0 frame alone; the
        // second TL2 frame references the TL1 frame too.
        let sync = stream.frames.map(\.layerSync)
        #expect(sync == [true, true, true, false, false, true, true, true, true, false, false, true, true, false], "\(sync)")
        #expect(stream.frames.indices.filter { stream.frames[$0].isKeyframe } == [0, 6])
    }

    @Test func oneLayerHasNoLayerIDs() throws {
        let stream = try Self.layered(1, count: 4)
        #expect(stream.frames.allSatisfy { $0.temporalLayerID == nil && !$0.layerSync })
    }

    /// What a decoder makes of the frames `keep` keeps, by frame index.
    static func decode(_ frames: [EncodedVideoFrame], keeping keep: (EncodedVideoFrame) -> Bool) throws -> [Int: VideoFrame] {
        let decoder = try VP8Decoder()
        var pictures: [Int: VideoFrame] = [:]
        for (index, frame) in frames.enumerated() where keep(frame) {
            pictures[index] = try decoder.decode(frame.data, mediaTime: 0)
        }
        return pictures
    }

    /// The proof that upper layers can be dropped: the base layer alone (and, with three
    /// layers, TL0 and TL1 alone) decodes with no error to exactly the pictures the whole
    /// stream decodes to at those frames. A frame that referenced a dropped one would decode
    /// to something else (VP8 decoders do not notice a missing reference; they drift).
    @Test(arguments: [2, 3])
    func theLowerLayersAloneDecodeToTheSamePictures(layers: Int) throws {
        let stream = try Self.layered(layers, count: 40, forced: [21])
        let whole = try Self.decode(stream.frames) { _ in true }
        for kept in 0..<(layers - 1) {
            let lower = try Self.decode(stream.frames) { ($0.temporalLayerID ?? 0) <= kept }
            let indices = stream.frames.indices.filter { (stream.frames[$0].temporalLayerID ?? 0) <= kept }
            #expect(lower.count == indices.count && !indices.isEmpty)
            for index in indices {
                let picture = try #require(lower[index]), reference = try #require(whole[index])
                #expect(picture.y == reference.y && picture.u == reference.u && picture.v == reference.v,
                        "frame \(index) (layers ≤ \(kept) of \(layers)) differs from the whole stream's")
            }
        }
        // And the pictures are the input's: the moving band is where it was put.
        let last = try #require(whole[39])
        #expect(last.meanAbsoluteDifference(to: stream.pictures[39], in: .init(x: 0, y: 100, width: 320, height: 80)) < 4)
    }

    /// The check above has teeth: a stream of one layer with every other frame dropped decodes
    /// to other pictures than the whole stream.
    @Test func droppingFramesOfASingleLayerStreamChangesItsPictures() throws {
        let stream = try Self.layered(1, count: 10)
        let whole = try Self.decode(stream.frames) { _ in true }
        var index = 0
        let halved = try Self.decode(stream.frames) { _ in
            defer { index += 1 }
            return index % 2 == 0
        }
        let differing = halved.keys.filter { key in halved[key]?.y != whole[key]?.y }
        #expect(!differing.isEmpty)
    }

    // MARK: - Settings changed while running

    @Test func reconfigureChangesSettingsWithoutAKeyframe() throws {
        let settings = VP8Encoder.Settings(width: 640, height: 360, bitrate: 2_000_000, keyframeInterval: 300)
        let encoder = try VP8Encoder(settings: settings)
        var noise = SeededGenerator(seed: 11)
        var bytes = [0, 0]
        var keyframes: [Int] = []
        for index in 0..<120 {
            if index == 60 {
                var changed = settings
                changed.bitrate = 500_000
                changed.rateControl = .vbr
                changed.quantizerMin = 10
                changed.quantizerMax = 63
                changed.cpuUsed = -6
                changed.keyframeInterval = 50
                try encoder.reconfigure(changed)
                #expect(encoder.settings == changed && encoder.bitrate == 500_000)
            }
            let frame = try #require(try encoder.encode(H264EncoderTests.picture(index, width: 640, height: 360, colour: .black, noise: &noise)))
            if frame.isKeyframe { keyframes.append(index) }
            // The last 30 frames of each half, after the rate control settled.
            if index % 60 >= 30 { bytes[index / 60] += frame.data.count }
        }
        print("measured: VP8 reconfigure 2000 → 500 kb/s (cbr → vbr, quantizers 4…56 → 10…63): \(bytes[0] * 8) → \(bytes[1] * 8) b/s")
        #expect(bytes[1] < bytes[0] / 2, "\(bytes)")
        // No keyframe at the change; the new interval's at 100 (n % 50 == 0).
        #expect(keyframes == [0, 100], "\(keyframes)")
    }

    @Test func reconfigureRefusesWhatNeedsANewEncoder() throws {
        let settings = VP8Encoder.Settings(width: 320, height: 180, bitrate: 500_000, temporalLayers: 2)
        let encoder = try VP8Encoder(settings: settings)
        var other = settings
        other.temporalLayers = 3
        #expect(throws: EncodeError.self) { try encoder.reconfigure(other) }
        other = settings
        other.width = 640
        #expect(throws: EncodeError.self) { try encoder.reconfigure(other) }
        other = settings
        other.quantizerMin = 60
        other.quantizerMax = 10
        #expect(throws: EncodeError.self) { try encoder.reconfigure(other) }
        #expect(encoder.settings == settings)
        // Switching to cq with a level below the range works too (clamped).
        other = settings
        other.rateControl = .cq
        other.quantizerMin = 20
        other.cqLevel = 2
        try encoder.reconfigure(other)
        var noise = SeededGenerator(seed: 2)
        for index in 0..<4 { _ = try encoder.encode(H264EncoderTests.picture(index, colour: .black, noise: &noise)) }
        #expect(encoder.framesEncoded == 4 && encoder.keyframesEncoded == 1)
    }

    /// setBitrate with temporal layers rescales each layer's share (libvpx's per-layer rate
    /// control reads ts_target_bitrate, not rc_target_bitrate): the bitrate falls and the
    /// pattern goes on. Quantizers up to 63, so the noise does not hold the rate up as it does
    /// at 56 (`H264EncoderTests.vp8TooChangesItsBitrate`).
    @Test func setBitrateWithTemporalLayers() throws {
        let encoder = try VP8Encoder(settings: .init(width: 640, height: 360, bitrate: 2_000_000, quantizerMax: 63, temporalLayers: 3))
        var noise = SeededGenerator(seed: 12)
        var bytes = [0, 0]
        var ids: [UInt8] = []
        for index in 0..<120 {
            if index == 60 { try encoder.setBitrate(600_000) }
            let frame = try #require(try encoder.encode(H264EncoderTests.picture(index, width: 640, height: 360, colour: .black, noise: &noise)))
            ids.append(frame.temporalLayerID ?? 9)
            if index % 60 >= 20 { bytes[index / 60] += frame.data.count }
        }
        print("measured: VP8 3 layers setBitrate 2000 → 600 kb/s: \(bytes[0] * 8 * 30 / 40) → \(bytes[1] * 8 * 30 / 40) b/s")
        #expect(bytes[1] < bytes[0] * 6 / 10, "\(bytes)")
        #expect(ids == (0..<120).map { [0, 2, 1, 2][$0 % 4] })
        #expect(encoder.bitrate == 600_000 && encoder.settings.bitrate == 600_000)
    }
}
