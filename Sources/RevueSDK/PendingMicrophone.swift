import Capture

/// What a microphone track sends while its device is still opening after the 2 s wait
/// (`DeviceOpening`): silence, then the device's samples once it opened, in the track's channels.
final class PendingMicrophone: MicrophoneSource, Sendable {
    let channels: Int
    let opening: DeviceOpening<any MicrophoneSource>

    init(channels: Int, opening: DeviceOpening<any MicrophoneSource>) {
        self.channels = channels
        self.opening = opening
    }

    func samples(from start: Int, count: Int) -> [Float] {
        guard let device = opening.opened else { return [Float](repeating: 0, count: max(0, count) * channels) }
        return device.samples(from: start, count: count, channels: channels)
    }
}
