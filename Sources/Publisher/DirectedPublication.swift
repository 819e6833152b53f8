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
    /// The section it is sent in. A change of codec moves it to a new section, since one
    /// m-section's producer in the SFU, and the subscriber's decoder, have one codec.
    var section: DirectedSection
    /// The encoder, made at the first picture (it needs the camera's size) and again when
    /// the size, the frame rate or the number of temporal layers changes.
    private var encoder: (any RealTimeVideoEncoder)?
    private var encoderFormat: CameraFormat?
    var keyframeWanted = true
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

    /// The encoder's target now.
    var bitrate: Int { encoder?.bitrate ?? settings.codec.bitrate }

    /// New settings of the same codec, from the next picture, without a new encoder where
    /// libvpx can take them as they are (`VP8Encoder.reconfigure`); a new frame rate or number
    /// of temporal layers needs one, which starts with a keyframe.
    func update(_ new: DirectedVideo) throws(EncodeError) {
        let old = settings
        settings = new
        if new.maxFps != old.maxFps { nextDue = nil }
        guard let encoder, let format = encoderFormat else { return }
        let rate = Self.encoderRate(new, camera: format)
        switch (new.codec, encoder) {
        case (.vp8(let vp8), let current as VP8Encoder) where current.settings.framesPerSecond == rate
            && current.settings.temporalLayers == vp8.temporalLayers:
            try current.reconfigure(Self.vp8Settings(vp8, format: format, framesPerSecond: rate))
        case (.h264(let bitrate), let current as H264Encoder) where current.settings.framesPerSecond == rate:
            try current.setBitrate(max(10_000, bitrate))
        default:
            self.encoder = nil
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

    /// Encodes one picture of the camera (of `format`).
    func encode(_ picture: VideoFrame, format: CameraFormat) throws(EncodeError) -> EncodedVideoFrame? {
        if encoder == nil || encoderFormat.map({ $0.width != format.width || $0.height != format.height || $0.framesPerSecond != format.framesPerSecond }) ?? true {
            encoder = try Self.makeEncoder(settings, camera: format)
            encoderFormat = format
            keyframeWanted = true
        }
        guard let encoder, let frame = try encoder.encode(picture, forceKeyframe: keyframeWanted) else { return nil }
        if frame.isKeyframe { keyframeWanted = false }
        framesEncoded += 1
        if frame.isKeyframe { keyframesEncoded += 1 }
        return frame
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

    private static func makeEncoder(_ settings: DirectedVideo, camera format: CameraFormat) throws(EncodeError) -> any RealTimeVideoEncoder {
        let rate = encoderRate(settings, camera: format)
        switch settings.codec {
        case .vp8(let vp8):
            return try VP8Encoder(settings: vp8Settings(vp8, format: format, framesPerSecond: rate))
        case .h264(let bitrate):
            // A keyframe every 10 s, as the room-wide camera has; PLIs ask for more.
            return try H264Encoder(settings: H264Encoder.Settings(width: format.width, height: format.height, framesPerSecond: rate,
                                                                  bitrate: max(10_000, bitrate), keyframeInterval: rate * 10))
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
    let ssrc = UInt32.random(in: 1...UInt32.max)
    let rtxSSRC = UInt32.random(in: 1...UInt32.max)
    /// Offered as sending; false once its publication ended or moved to another section.
    var isActive = true
    /// What the server's answer negotiated for it; nil until then.
    var track: SendTrack?

    init(mid: String, kind: StreamKind, participantID: String?, codec: PublishedVideoCodec) {
        self.mid = mid
        self.kind = kind
        self.participantID = participantID
        self.codec = codec
    }
}
