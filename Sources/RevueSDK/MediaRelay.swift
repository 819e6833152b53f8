import Capture
import Publisher
import Signaling

/// One media relay to another room (`Room.requestMediaRelay`): this client joins the destination
/// room a second time, as a publisher only, and sends it the same camera, microphone and
/// screen share pictures and sound as the room it is in, for the kinds asked. The relay is the
/// client's, not the server's: it costs a second upload, and the destination room sees this
/// participant as one of its own, with the same name.
@MainActor
final class MediaRelay {
    let destinationRoomID: String
    let kinds: Set<StreamKind>
    let publisher: RoomPublisher
    /// The share publication in the destination room, while one is sent.
    private var sharePublication: Int?
    private var sentShare: (any CameraSource)?
    private var last: MediaState?
    /// The camera codecs the destination refused that `onError` has heard of (once each).
    var reportedRefusals: Set<PublishedVideoCodec?> = []

    init(destinationRoomID: String, kinds: Set<StreamKind>, publisher: RoomPublisher) {
        self.destinationRoomID = destinationRoomID
        self.kinds = kinds
        self.publisher = publisher
    }

    /// Sends what the room sends now, of the relayed kinds, and tells the destination room.
    /// `cameraSettings`: what the room sends its camera as (`Room.sentVideo` and the track's
    /// codec), which the relay sends too.
    func update(camera: (any CameraSource)?, cameraSettings: (bitrate: Int?, layers: [SimulcastEncoding], codec: PublishedVideoCodec?),
                microphone: (any MicrophoneSource)?, share: (any CameraSource)?, shareSettings: DirectedVideo?)
    {
        publisher.setCamera(kinds.contains(.VIDEO) ? camera : nil, bitrate: cameraSettings.bitrate, simulcast: cameraSettings.layers,
                            codec: cameraSettings.codec)
        publisher.setMicrophone(kinds.contains(.AUDIO) ? microphone : nil)
        let wantedShare = kinds.contains(.SHARE) ? share : nil
        if wantedShare !== sentShare {
            if let id = sharePublication { publisher.unpublishVideo(publication: id) }
            sharePublication = nil
            if let wantedShare, let shareSettings {
                sharePublication = publisher.publishShare(source: wantedShare, settings: shareSettings) { _ in }
            }
            sentShare = wantedShare
        }
        let state = MediaState(mic: kinds.contains(.AUDIO) && microphone != nil, webcam: kinds.contains(.VIDEO) && camera != nil,
                               screenShare: sentShare != nil)
        if state != last {
            publisher.send(.mediaState(state))
            last = state
        }
    }
}
