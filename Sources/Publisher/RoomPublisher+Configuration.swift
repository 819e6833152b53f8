import DataChannel
import Encode
import Foundation
import FrameCrypto
import JobSpec
import Log
import Media
import RTP
import SDP
import Signaling
import Transport
import Capture
import RoomSession

extension RoomPublisher {
    public struct Configuration: Sendable {
        /// `ws://host:port/v2/rtc`.
        public var signalingURL: String
        public var roomID: String
        public var token: String
        /// The name the others see (the seeds' `participantName`).
        public var participantName: String
        /// The id asked for; nil lets the server (or the token) choose.
        public var participantID: String?
        /// The camera at the start; nil sends no video until `setCamera` gives one (the seeds'
        /// `camEnabled: false`).
        public var camera: (any CameraSource)?
        /// The microphone at the start; nil sends no audio until `setMicrophone` (`micEnabled: false`).
        public var microphone: (any MicrophoneSource)?
        /// VP8 or H.264; the offer carries only this one, so the server takes it or refuses.
        public var videoCodec: PublishedVideoCodec
        /// `SEND_AND_RECV` offers media; `RECV_ONLY` and `SIGNALLING_ONLY` offer none (the SDK's
        /// modes, docs/SIGNALING.md).
        public var mode: ParticipantMode
        /// Which sections the publisher connection offers. nil offers what `camera` and
        /// `microphone` are; the SDK offers both, so a camera turned on later needs no new offer.
        public var offeredKinds: Set<StreamKind>?
        /// Every message the server sends, on the media thread, in order (the SDK's events and
        /// request replies). The publisher has acted on it already where it concerns the media.
        public var onMessage: (@Sendable (ServerEnvelope) -> Void)?
        /// Called once, on the media thread, when the publisher stops on its own (the room closed,
        /// the connection failed), with why; not after `leave()`.
        public var onStopped: (@Sendable (String) -> Void)?
        /// Opens the data channels (`revue`, `revue-unreliable`) on the publisher connection, as
        /// the join page does; a RECV_ONLY participant then has a connection for them alone.
        public var dataChannel: Bool = false
        /// Each data-channel message the server relays, on the media thread.
        public var onData: (@Sendable (DataMessage) -> Void)?
        /// Whether to receive: answer the server's subscriber offers and decode the others'
        /// audio and video (`remoteTrack(participantID:kind:)`). Off by default: a bot that only
        /// publishes declines them and costs the server nothing. In `SIGNALLING_ONLY` nothing is
        /// received until `startReceiving()`, before a change to a mode with media.
        public var receives: Bool = false
        /// Whether the publisher stops when its media connection closes. The SDK keeps the
        /// signalling going (a mode change closes the media, the room goes on); a lost
        /// signalling connection still stops it.
        public var stopsWithMedia: Bool = true
        /// Lets the owner withdraw the join while it is under way.
        public var cancellation: JoinCancellation?
        /// Video bits per second; nil picks one for the camera's size.
        public var videoBitrate: Int?
        /// VP8 simulcast (docs/PUBLISHING.md): the layers to send, lowest first, each with its
        /// own encoder, SSRCs and RID; the offer names them (`a=rid`, `a=simulcast`) and
        /// `videoBitrate` is not used. Empty (the default) sends one stream. H.264 is sent as one
        /// stream.
        public var simulcast: [SimulcastEncoding] = []
        public var audioBitrate: Int
        /// libvpx's speed (VP8E_SET_CPUUSED; -16…16, negative is real time).
        public var cpuUsed: Int32
        public var joinTimeout: Double
        /// Each connection (TCP and the WebSocket handshake) of the join at most this long, when
        /// set: a reconnection's attempts (`RoomPublisher.rejoinConnectTimeout`) do not wait
        /// out a node that died and answers nothing.
        public var connectTimeout: Double?
        /// The end-to-end encryption keys (docs/E2EE.md), read before each frame so a changed
        /// key applies at once. This participant's own frames are encrypted with the shared
        /// key or its own (VP8, H.264 and Opus; each stream starts again with a new key ID when
        /// the key changes): when there is one at join, the join tells the room this
        /// participant's media is encrypted, and from then on nothing is sent in the clear (a
        /// key removed later leaves the last one in use). A receiving publisher decrypts the
        /// others' encrypted frames with them, and decodes none it has no key for.
        public var e2eeKeys: (@Sendable () -> E2EEKeys?)?
        /// Sent with the join (`JoinRequest.resumeKey`): a later publisher joining with the same
        /// participant id and key takes this one's place after a lost connection.
        public var resumeKey: String?
        /// Ping the server after this many seconds of silence and count the connection lost
        /// when as long again passes without an answer; nil relies on the server's keepalive.
        public var signalingKeepalive: Double?
        /// Called once, on the media thread, when the signalling connection is lost (not closed
        /// by the server): the publisher stops, without the `roomLeft` it otherwise hands
        /// `onMessage`, so the owner can reconnect with a new publisher (the SDK does).
        public var onConnectionLost: (@Sendable (String) -> Void)?
        /// Called on the media thread when the camera section, first offered or offered again
        /// (another codec, more layers: `setCamera`), was not accepted: the server refused the
        /// offer, or its answer took neither the codec nor the streams (`revue serve
        /// --video-codecs`). The camera sends nothing until a later `setCamera` asks for what
        /// the section can carry. Without it, a first answer that refuses the camera stops
        /// the publisher. It is given the codec the answer did not take (nil when the server
        /// refused the whole offer) and why.
        public var onCameraRefused: (@Sendable (_ codec: PublishedVideoCodec?, _ reason: String) -> Void)?
        /// How fast this device's media clock runs against real time (200e-6: 200 ppm fast), as a
        /// camera's or a sound card's crystal does: capture, media timestamps and sender reports
        /// all follow it. For tests and benchmarks of a receiver's clock recovery; 0 in use.
        public var clockSkew: Double = 0
        /// 1, or 2 to send stereo Opus (the SDK's `standard_stereo`, `high_quality_stereo`): a
        /// mono microphone is sent in both channels, and the offer says `stereo=1;sprop-stereo=1`
        /// (RFC 7587 §6.1).
        public var audioChannels = 1

        public init(signalingURL: String, roomID: String, token: String, participantName: String, participantID: String? = nil,
                    camera: (any CameraSource)?, microphone: (any MicrophoneSource)?, videoCodec: PublishedVideoCodec = .vp8,
                    videoBitrate: Int? = nil, audioBitrate: Int = 32_000, cpuUsed: Int32 = -8, joinTimeout: Double = 15,
                    mode: ParticipantMode = .sendAndReceive, offeredKinds: Set<StreamKind>? = nil,
                    onMessage: (@Sendable (ServerEnvelope) -> Void)? = nil, onStopped: (@Sendable (String) -> Void)? = nil)
        {
            self.signalingURL = signalingURL
            self.roomID = roomID
            self.token = token
            self.participantName = participantName
            self.participantID = participantID
            self.camera = camera
            self.microphone = microphone
            self.videoCodec = videoCodec
            self.videoBitrate = videoBitrate
            self.audioBitrate = audioBitrate
            self.cpuUsed = cpuUsed
            self.joinTimeout = joinTimeout
            self.mode = mode
            self.offeredKinds = offeredKinds
            self.onMessage = onMessage
            self.onStopped = onStopped
        }

        /// The sections offered: `offeredKinds`, or the camera's and the microphone's.
        var offers: Set<StreamKind> {
            guard mode == .sendAndReceive else { return [] }
            if let offeredKinds { return offeredKinds.subtracting([.share]) }
            var kinds: Set<StreamKind> = []
            if microphone != nil { kinds.insert(.audio) }
            if camera != nil { kinds.insert(.video) }
            return kinds
        }
    }
}
