import Capture
import Encode
import Media
@testable import Publisher
import Testing

/// A track of its own (a screen share, a camera for one participant) with simulcast layers:
/// what each picture makes, which streams it goes to, and which keyframes are asked for.
@Suite struct DirectedPublicationTests {
    static let camera = CameraFormat(width: 640, height: 360, framesPerSecond: 30)
    static let vp8 = DirectedVideo.VP8(bitrate: 400_000, cpuUsed: 8, quantizerMin: 4, quantizerMax: 56, keyframeInterval: 300,
                                       rateControl: .vbr, cqLevel: 30, temporalLayers: 1)
    static let layers = [SimulcastEncoding(rid: "q", scaleDown: 4, bitrate: 30_000), SimulcastEncoding(rid: "h", scaleDown: 2, bitrate: 100_000),
                         SimulcastEncoding(rid: "f", scaleDown: 1, bitrate: 400_000)]

    static func publication(_ settings: DirectedVideo) -> DirectedPublication {
        let section = DirectedSection(mid: "3", kind: .share, participantID: nil, codec: .vp8, rids: settings.simulcast.map(\.rid))
        // As the server's answer accepted every stream.
        section.tracks = section.streams.map { SendTrack(codec: .vp8, ssrc: $0.ssrc, payloadType: 96, mid: "3", rid: $0.rid) }
        return DirectedPublication(id: 1, participantID: nil, source: nil, settings: settings, section: section)
    }

    static func picture(_ index: Int) -> VideoFrame {
        VideoFrame(width: camera.width, height: camera.height, color: YUVColor(y: UInt8(40 + index % 100), u: 128, v: 128),
                   mediaTime: Double(index) / 30)
    }

    @Test func eachLayerIsEncodedAtItsSizeOnItsOwnStream() throws {
        let publication = Self.publication(DirectedVideo(codec: .vp8(Self.vp8), maxFps: 30, simulcast: Self.layers))
        let streams = publication.section.streams
        #expect(streams.map(\.rid) == ["q", "h", "f"] && Set(streams.map(\.ssrc)).count == 3)
        #expect(publication.section.ssrc == streams[2].ssrc, "the section is named by its top stream")
        let all = Set(streams.map(\.ssrc))
        let first = try publication.encode(Self.picture(0), format: Self.camera, sending: all)
        #expect(first.map(\.ssrc) == streams.map(\.ssrc) && first.allSatisfy(\.frame.isKeyframe))
        let sizes = publication.layerStatistics(bytesSent: [:]).map { "\($0.rid ?? "-") \($0.width)x\($0.height) \($0.bitrate)" }
        #expect(sizes == ["q 160x90 30000", "h 320x180 100000", "f 640x360 400000"])
        #expect(publication.bitrate == 530_000)
        // Only the streams the answer accepted are encoded.
        let top = try publication.encode(Self.picture(1), format: Self.camera, sending: [streams[2].ssrc])
        #expect(top.map(\.ssrc) == [streams[2].ssrc] && !top[0].frame.isKeyframe)
    }

    @Test func aKeyframeRequestForOneLayerRestartsThatLayerAlone() throws {
        let publication = Self.publication(DirectedVideo(codec: .vp8(Self.vp8), maxFps: 30, simulcast: Self.layers))
        let streams = publication.section.streams
        let all = Set(streams.map(\.ssrc))
        _ = try publication.encode(Self.picture(0), format: Self.camera, sending: all)
        #expect(!publication.keyframeWanted)
        #expect(publication.sends(ssrc: streams[1].ssrc) && !publication.sends(ssrc: 7))
        publication.wantKeyframe(ssrc: streams[1].ssrc)
        #expect(publication.keyframeWanted)
        let next = try publication.encode(Self.picture(1), format: Self.camera, sending: all)
        #expect(next.map(\.frame.isKeyframe) == [false, true, false])
        // A layer the answer did not accept is not encoded, so its keyframe is owed to no one.
        publication.section.tracks.removeAll { $0.ssrc == streams[0].ssrc }
        publication.wantKeyframe(ssrc: streams[0].ssrc)
        #expect(!publication.keyframeWanted)
        publication.wantKeyframe()
        let again = try publication.encode(Self.picture(2), format: Self.camera, sending: all)
        #expect(again.map(\.frame.isKeyframe) == [true, true, true])
    }

    @Test func newRatesApplyWithoutNewEncoders() throws {
        let publication = Self.publication(DirectedVideo(codec: .vp8(Self.vp8), maxFps: 30, simulcast: Self.layers))
        let all = Set(publication.section.streams.map(\.ssrc))
        _ = try publication.encode(Self.picture(0), format: Self.camera, sending: all)
        var lower = Self.layers
        lower[2].bitrate = 200_000
        try publication.update(DirectedVideo(codec: .vp8(Self.vp8), maxFps: 30, simulcast: lower))
        #expect(publication.layerStatistics(bytesSent: [:]).map(\.bitrate) == [30_000, 100_000, 200_000])
        let next = try publication.encode(Self.picture(1), format: Self.camera, sending: all)
        #expect(next.allSatisfy { !$0.frame.isKeyframe }, "a new rate costs no keyframe")
    }

    @Test func aSingleStreamHasNoLayers() throws {
        let publication = Self.publication(DirectedVideo(codec: .vp8(Self.vp8), maxFps: 15))
        #expect(publication.section.streams.count == 1 && publication.section.streams[0].rid == nil)
        let frames = try publication.encode(Self.picture(0), format: Self.camera, sending: [publication.section.ssrc])
        #expect(frames.count == 1 && frames[0].frame.isKeyframe)
        #expect(publication.layerStatistics(bytesSent: [:]).map { "\($0.width)x\($0.height)" } == ["640x360"])
    }

    @Test(arguments: [
        (DirectedVideo(codec: .h264(bitrate: 500_000), maxFps: 30, simulcast: layers), "sent in VP8 only"),
        (DirectedVideo(codec: .vp8(vp8), maxFps: 30, simulcast: layers + [SimulcastEncoding(rid: "x", scaleDown: 8, bitrate: 10_000)]), "at most 3"),
        (DirectedVideo(codec: .vp8(vp8), maxFps: 30, simulcast: [layers[0], layers[0]]), "its own RID"),
        (DirectedVideo(codec: .vp8(vp8), maxFps: 30, simulcast: [SimulcastEncoding(rid: "a b", scaleDown: 2, bitrate: 1)]), "its own RID"),
        (DirectedVideo(codec: .vp8(vp8), maxFps: 30, simulcast: [SimulcastEncoding(rid: "h", scaleDown: 2, bitrate: 0)]), "above 0"),
    ])
    func layersThatCannotBeSentAreRefused(settings: DirectedVideo, reason: String) {
        #expect(settings.problem?.field == "multiStream" && settings.problem?.reason.contains(reason) == true, "\(String(describing: settings.problem))")
    }
}
