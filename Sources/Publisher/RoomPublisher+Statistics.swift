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

extension RoomPublisher {
    /// What the publisher has done so far, for logs, the demo and the benchmarks.
    public struct Statistics: Sendable, Equatable {
        public var sender = MediaSender.Statistics()
        /// Offers sent on the publisher connection: the join's, and each renegotiation's (a
        /// track of its own, a camera section offered again, a promotion).
        public var offersSent = 0
        public var videoFramesEncoded = 0
        public var keyframesEncoded = 0
        /// Video frames not sent because the publisher fell behind real time (CPU, or a full pacer).
        public var videoFramesSkipped = 0
        /// The SDP name of the video codec the server accepted (`VP8`, `H264`); nil before the answer.
        public var videoCodec: String?
        /// The video encoder's target now (bits per second): the configured one, or lower when
        /// the path's estimate (REMB or TWCC, the lower) says it takes less.
        public var videoBitrate = 0
        /// Times the target was changed for an estimate.
        public var bitrateChanges = 0
        /// The Opus encoder's target now (bits per second): `Configuration.audioBitrate`, or the
        /// microphone's (`setMicrophone(_:bitrate:)`).
        public var audioBitrate = 0
        public var audioFramesEncoded = 0
        public var audioFramesSkipped = 0
        /// Seconds from the publish answer to SRTP being up; nil until then.
        public var secondsToConnect: Double?
        /// Seconds of media sent since the connection came up.
        public var mediaSeconds: Double = 0
        /// Each video stream, lowest first: one without simulcast, else the simulcast layers.
        public var videoLayers: [Layer] = []
        /// The tracks for one participant each (`publishVideo(to:…)`), by publication id.
        public var directed: [Int: Directed] = [:]

        /// One track of its own: for one participant, or a screen share.
        public struct Directed: Sendable, Equatable {
            /// Who it is for; nil for a screen share, which goes to the room.
            public var participantID: String?
            public var kind: StreamKind
            /// Its section's mid, (top) SSRC and codec's SDP name; a change of codec or layers moves it to a new section.
            public var mid: String
            public var ssrc: UInt32
            public var codec: String
            /// Whether the server accepted its section and it is being sent.
            public var isSending: Bool
            public var bitrate: Int
            public var maxFps: Int
            public var framesEncoded: Int
            public var keyframesEncoded: Int
            /// The camera's pictures not sent because of `maxFps`.
            public var framesDropped: Int
            /// RTP payload bytes sent on its SSRCs (retransmissions not).
            public var bytesSent: Int
            /// With simulcast, each layer's counters, lowest first; empty for a single stream.
            public var layers: [Layer] = []
        }

        /// One video stream's counters.
        public struct Layer: Sendable, Equatable {
            /// Its RID; nil for a single stream.
            public var rid: String?
            public var ssrc: UInt32
            public var width: Int
            public var height: Int
            /// Its encoder's target now (bits per second).
            public var bitrate: Int
            public var framesEncoded: Int
            public var keyframesEncoded: Int
            /// RTP payload bytes sent on its SSRC (retransmissions not).
            public var bytesSent: Int
        }
    }
}
