/// Whether a livestream is also recorded (`LivestreamConfig.recording`).
public struct LivestreamRecordingConfig: Sendable, Hashable {
    public var enabled: Bool

    public init(enabled: Bool) {
        self.enabled = enabled
    }
}
