import Encode

/// One picture stream a publisher encodes: the camera's only one, or one simulcast layer
/// (`SimulcastEncoding`) with its own encoder, SSRCs and RID. Separate encoders rather than
/// libvpx's multi-resolution encoder (`vpx_codec_enc_init_multi`): that one works only in a
/// libvpx configured with `--enable-multi-res-encoding`, and it encodes every layer in one
/// call, so a keyframe or a rate change is asked of them all together; with an encoder each,
/// `VP8Encoder` is reused as it is, and a PLI for one layer (the SSRC it names) costs the
/// others nothing. The price is the motion search the multi-resolution encoder shares.
final class VideoLayer {
    /// The RID the layer's packets carry; nil for a single stream.
    let rid: String?
    let ssrc: UInt32
    let rtxSSRC: UInt32
    let encoder: any RealTimeVideoEncoder
    /// Downscales the camera's pictures to the layer's size; nil at the camera's size.
    let scaler: LayerScaler?
    /// The rate the layer was asked for, which REMB may only lower.
    let bitrate: Int
    /// A keyframe is owed: the layer started, or its SSRC was asked for one (PLI/FIR).
    var keyframeWanted = true

    init(rid: String?, ssrc: UInt32, rtxSSRC: UInt32, encoder: any RealTimeVideoEncoder, scaler: LayerScaler?, bitrate: Int) {
        self.rid = rid
        self.ssrc = ssrc
        self.rtxSSRC = rtxSSRC
        self.encoder = encoder
        self.scaler = scaler
        self.bitrate = bitrate
    }
}
