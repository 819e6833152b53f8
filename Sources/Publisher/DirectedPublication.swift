import Encode
import Signaling
import Media
import Capture

/// A video track a publisher encodes with settings of its own, in an m-section of its own
/// (`DirectedSection`), on the media thread: the camera's pictures for one participant
/// (`RoomPublisher.publishVideo(to:…)`, which the server forwards to them alone: docs/SIGNALING.md
/// "Tracks for one participant"), or a screen share's for the room (`publishShare`), each thinned
/// to `maxFps` and through an encoder of its own.
final class DirectedPublication {
    let id: Int
    /// Who it is for; nil for the room (a screen share).
    let participantID: String?
    /// Where its pictures come from: nil is the room's camera; a screen share has its own.
    let source: (any CameraSource)?
    /// The next picture of `source` to take.
    var nextFrame = 0
    private(set) var settings: DirectedVideo
    /// The section it is sent in. A change of codec or of simulcast layers moves it to a new
    /// section, since one m-section's producer in the SFU, and the subscriber's decoder, have
    /// one codec, and its offer names its layers.
    var section: DirectedSection
    /// The streams it encodes, one per stream of `section` (lowest first): made at the first
    /// picture (they need the camera's size) and again when the size, the frame rate, the
    /// number of temporal layers or the section changes.
    private var layers: [VideoLayer] = []
    private var layersFormat: CameraFormat?
    /// The media time from which the next picture may be sent (`maxFps`).
    private var nextDue: Double?
    private(set) var framesEncoded = 0
    private(set) var keyframesEncoded = 0
    /// Pictures of the camera not sent because of `maxFps`.
    private(set) var framesDropped = 0

    init(id: Int, participantID: String?, source: (any CameraSource)?, settings: DirectedVideo, section: DirectedSection) {
        self.id = id
        self.participantID = participantID
        self.source = source
        self.settings = settings
        self.section = section
    }

    /// The encoders' targets now, all streams together.
    var bitrate: Int { layers.isEmpty ? settings.totalBitrate : layers.reduce(0) { $0 + $1.encoder.bitrate } }

    /// Whether a keyframe is owed on some stream being sent (a new one starts with one); a
    /// layer the answer did not accept is never encoded, so it owes nothing.
    var keyframeWanted: Bool {
        let sending = Set(section.tracks.map(\.ssrc))
        return layers.isEmpty ? !sending.isEmpty : layers.contains { $0.keyframeWanted && sending.contains($0.ssrc) }
    }

    /// Asks for a keyframe on the stream of `ssrc` (a PLI names one, RFC 4585 §6.3.1), or on
    /// every stream.
    func wantKeyframe(ssrc: UInt32? = nil) {
        for layer in layers where ssrc == nil || layer.ssrc == ssrc { layer.keyframeWanted = true }
    }

    /// Whether `ssrc` is one of its section's streams.
    func sends(ssrc: UInt32) -> Bool {
        section.streams.contains { $0.ssrc == ssrc }
    }

    /// Each stream's counters, lowest first; `bytesSent` from the sender's count by SSRC.
    func layerStatistics(bytesSent: [UInt32: Int]) -> [RoomPublisher.Statistics.Layer] {
        layers.map { layer in
            RoomPublisher.Statistics.Layer(rid: layer.rid, ssrc: layer.ssrc, width: layer.scaler?.width ?? layersFormat?.width ?? 0,
                                           height: layer.scaler?.height ?? layersFormat?.height ?? 0, bitrate: layer.encoder.bitrate,
                                           framesEncoded: layer.encoder.framesEncoded, keyframesEncoded: layer.encoder.keyframesEncoded,
                                           bytesSent: bytesSent[layer.ssrc] ?? 0)
        }
    }

    /// New settings of the same codec and layers, from the next picture, without a new encoder
    /// where libvpx can take them as they are (`VP8Encoder.reconfigure`); a new frame rate or
    /// number of temporal layers needs one, which starts with a keyframe.
    func update(_ new: DirectedVideo) throws(EncodeError) {
        let old = settings
        settings = new
        if new.maxFps != old.maxFps { nextDue = nil }
        guard !layers.isEmpty, let format = layersFormat else { return }
        guard new.simulcast.map(\.scaleDown) == old.simulcast.map(\.scaleDown) else {
            layers = []
            return
        }
        let rate = Self.encoderRate(new, camera: format)
        let rates = new.simulcast.isEmpty ? [new.codec.bitrate] : new.simulcast.map(\.bitrate)
        for (layer, bitrate) in zip(layers, rates) {
            let size = CameraFormat(width: layer.scaler?.width ?? format.width, height: layer.scaler?.height ?? format.height,
                                    framesPerSecond: format.framesPerSecond)
            switch (new.codec, layer.encoder) {
            case (.vp8(var vp8), let current as VP8Encoder) where current.settings.framesPerSecond == rate
                && current.settings.temporalLayers == vp8.temporalLayers:
                vp8.bitrate = bitrate
                try current.reconfigure(Self.vp8Settings(vp8, format: size, framesPerSecond: rate))
            case (.h264, let current as H264Encoder) where current.settings.framesPerSecond == rate:
                try current.setBitrate(max(10_000, bitrate))
            default:
                layers = []
                return
            }
        }
    }

    /// Whether the picture at `mediaTime` is one to send: at most `maxFps` a second, the
    /// camera's rate when it captures fewer.
    func takes(mediaTime: Double, cameraRate: Double) -> Bool {
        // A quarter of a camera frame of slack, so 30 fps thinned to 15 takes every second one
        // whatever the rounding of the frame times.
        let slack = 0.25 / cameraRate
        if let due = nextDue, mediaTime + slack < due {
            framesDropped += 1
            return false
        }
        let interval = 1 / Double(settings.maxFps)
        let next = (nextDue ?? mediaTime) + interval
        // Behind by more than a frame (the camera paused, or the publisher fell behind): start
        // the count again rather than send a burst.
        nextDue = next <= mediaTime ? mediaTime + interval : next
        return true
    }

    /// Encodes one picture of the camera (of `format`) for each stream whose SSRC is in
    /// `sending` (those the server's answer accepted): each stream's frame and its SSRC.
    func encode(_ picture: VideoFrame, format: CameraFormat, sending: Set<UInt32>) throws -> [(ssrc: UInt32, frame: EncodedVideoFrame)] {
        if layers.isEmpty || layersFormat != format || layers.map(\.ssrc) != section.streams.map(\.ssrc) {
            layers = []
            layers = try Self.makeLayers(settings, camera: format, streams: section.streams)
            layersFormat = format
        }
        var frames: [(ssrc: UInt32, frame: EncodedVideoFrame)] = []
        for layer in layers where sending.contains(layer.ssrc) {
            guard let frame = try layer.encoder.encode(layer.scaler?.scale(picture) ?? picture, forceKeyframe: layer.keyframeWanted) else { continue }
            if frame.isKeyframe { layer.keyframeWanted = false }
            frames.append((layer.ssrc, frame))
        }
        if !frames.isEmpty { framesEncoded += 1 }
        if frames.contains(where: \.frame.isKeyframe) { keyframesEncoded += 1 }
        return frames
    }

    /// The encoder's frame rate: `maxFps`, or the camera's when it is lower (rate control
    /// spends the bitrate over the frames it is given).
    static func encoderRate(_ settings: DirectedVideo, camera: CameraFormat) -> Int {
        max(1, min(settings.maxFps, camera.framesPerSecond))
    }

    /// Each `Vp8Encoding` field as libvpx takes it (docs/PUBLISHING.md "Publish options").
    /// libvpx works in whole kilobits and refuses less than 10 kb/s, so a lower bitrate is
    /// sent as 10 kb/s.
    static func vp8Settings(_ vp8: DirectedVideo.VP8, format: CameraFormat, framesPerSecond: Int) -> VP8Encoder.Settings {
        let rateControl: VP8Encoder.RateControl
        switch vp8.rateControl {
        case .vbr: rateControl = .vbr
        case .cbr: rateControl = .cbr
        case .cq: rateControl = .cq
        }
        return VP8Encoder.Settings(width: format.width, height: format.height, framesPerSecond: framesPerSecond,
                                   bitrate: max(10_000, vp8.bitrate), keyframeInterval: vp8.keyframeInterval,
                                   cpuUsed: Int32(vp8.cpuUsed), rateControl: rateControl, quantizerMin: vp8.quantizerMin,
                                   quantizerMax: vp8.quantizerMax, cqLevel: vp8.cqLevel, temporalLayers: vp8.temporalLayers)
    }

    /// A stream for each of `streams`: the one at the camera's size, or a simulcast layer each
    /// (they take the streams in order, lowest first), scaled down unless at the camera's size.
    /// Each starts with a keyframe.
    static func makeLayers(_ settings: DirectedVideo, camera format: CameraFormat,
                           streams: [DirectedSection.Stream]) throws -> [VideoLayer]
    {
        let rate = encoderRate(settings, camera: format)
        let encodings: [SimulcastEncoding?] = settings.simulcast.isEmpty ? [nil] : settings.simulcast
        return try zip(encodings, streams).map { encoding, stream in
            let size = encoding?.format(for: format) ?? format
            let scaler = size == format ? nil : try LayerScaler(from: format, width: size.width, height: size.height)
            let bitrate = encoding?.bitrate ?? settings.codec.bitrate
            let encoder: any RealTimeVideoEncoder
            switch settings.codec {
            case .vp8(var vp8):
                vp8.bitrate = bitrate
                encoder = try VP8Encoder(settings: vp8Settings(vp8, format: size, framesPerSecond: rate))
            case .h264:
                // A keyframe every 10 s, as the room-wide camera has; PLIs ask for more.
                encoder = try H264Encoder(settings: H264Encoder.Settings(width: size.width, height: size.height, framesPerSecond: rate,
                                                                         bitrate: max(10_000, bitrate), keyframeInterval: rate * 10))
            }
            return VideoLayer(rid: stream.rid, ssrc: stream.ssrc, rtxSSRC: stream.rtxSSRC, encoder: encoder, scaler: scaler, bitrate: bitrate)
        }
    }
}

/// One m-section of the publisher connection added after the first offer: a track for one
/// participant, or a screen share. It stays in every later offer, `inactive` once it ends, so
/// the m-lines keep their places (RFC 3264 §8.2: a section is never taken out of an offer).
final class DirectedSection {
    let mid: String
    /// `video` (a camera for one participant) or `share`.
    let kind: StreamKind
    /// Who it is for; nil for the room.
    let participantID: String?
    let codec: PublishedVideoCodec
    /// One stream of the section: its only one (no RID), or a simulcast layer's.
    struct Stream {
        let rid: String?
        let ssrc = UInt32.random(in: 1...UInt32.max)
        let rtxSSRC = UInt32.random(in: 1...UInt32.max)
    }
    /// Its streams, lowest first: one, or a simulcast layer for each RID it was made with.
    let streams: [Stream]
    /// Offered as sending; false once its publication ended or moved to another section.
    var isActive = true
    /// What the server's answer negotiated for it, a track per stream it accepted; empty until then.
    var tracks: [SendTrack] = []

    init(mid: String, kind: StreamKind, participantID: String?, codec: PublishedVideoCodec, rids: [String] = []) {
        self.mid = mid
        self.kind = kind
        self.participantID = participantID
        self.codec = codec
        streams = rids.isEmpty ? [Stream(rid: nil)] : rids.map { Stream(rid: $0) }
    }

    /// Whether the server accepted it and it is being sent.
    var isNegotiated: Bool { !tracks.isEmpty }

    /// The SSRC that names the section: the top stream's.
    var ssrc: UInt32 { streams[streams.count - 1].ssrc }
}
