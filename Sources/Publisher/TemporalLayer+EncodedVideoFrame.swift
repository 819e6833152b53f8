import Encode
import RTP

extension TemporalLayer {
    /// The layer an encoder gave a frame, for `MediaSender.send(frame:ssrc:mediaTime:audioLevel:temporalLayer:)`;
    /// nil for a frame of an encoder without temporal layers, which is then packetized as before.
    public init?(_ frame: EncodedVideoFrame) {
        guard let id = frame.temporalLayerID else { return nil }
        self.init(id: id, isSync: frame.layerSync)
    }
}
