import Capture
/// One simulcast layer a publisher sends (`RoomPublisher.Configuration.simulcast`): the WebRTC
/// name for it is an encoding (`RTCRtpEncodingParameters`), and the room server's
/// `SimulcastLayer` is what it becomes there. Each layer has its own VP8 encoder, SSRC, RTX SSRC
/// and RID (RFC 8851, sent in the rtp-stream-id extension, RFC 8852 §3.1).
public struct SimulcastEncoding: Sendable, Equatable {
    /// The RID: `q`, `h` and `f` (quarter, half, full) in Revue's offers, as Chromium's apps name them.
    public var rid: String
    /// The camera's width and height are divided by this (1 is the camera's size; the layer's
    /// sides are rounded down to even numbers, at least 2).
    public var scaleDown: Int
    /// The layer's bits a second.
    public var bitrate: Int

    public init(rid: String, scaleDown: Int, bitrate: Int) {
        self.rid = rid
        self.scaleDown = max(1, scaleDown)
        self.bitrate = bitrate
    }

    /// The layer's size for a camera of `format`.
    public func format(for camera: CameraFormat) -> CameraFormat {
        CameraFormat(width: max(2, (camera.width / scaleDown) & ~1), height: max(2, (camera.height / scaleDown) & ~1),
                     framesPerSecond: camera.framesPerSecond)
    }

    /// The RIDs of `count` layers, lowest first: `q;h;f` for three, `h;f` for two.
    public static func rids(count: Int) -> [String] {
        Array(["q", "h", "f"].suffix(max(0, min(3, count))))
    }

    /// How a video target of `total` bits a second is shared among layers configured at
    /// `configured` (lowest first) when REMB says the path takes less than their sum: the
    /// lower layers keep their rates and the top layers give way first, since a subscriber on a
    /// poor link takes a lower layer and should get it whole. Each layer keeps at least a tenth
    /// of its rate (a picture must still be a picture), so the sum may exceed `total` a little.
    public static func share(_ total: Int, among configured: [Int]) -> [Int] {
        var left = total
        return configured.map { rate in
            let given = max(rate / 10, min(rate, left))
            left = max(0, left - given)
            return given
        }
    }
}
