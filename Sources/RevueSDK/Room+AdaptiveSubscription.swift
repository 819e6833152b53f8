import Foundation

/// Adaptive subscription (the Room seed's `enableAdaptiveSubscription`): the room asks each
/// publisher for the simulcast layer its video arrives well in (`AdaptiveSubscription`).
extension Room {
    /// Turns adaptive subscription on: every 2 s, each remote video's loss chooses its layer
    /// (`RemoteParticipant.setQuality`). Turning it on again does nothing.
    /// - Throws: 3065, 3035.
    public func enableAdaptiveSubscription() async throws(VideoSDKError) {
        try checkJoined()
        guard adaptiveTask == nil else { return }
        adaptive = AdaptiveSubscription()
        adaptiveTask = Task { @MainActor [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(AdaptiveSubscription.interval))
                guard let self, !Task.isCancelled else { return }
                await self.adaptSubscriptions(now: Date().timeIntervalSince1970)
            }
        }
    }

    /// Turns it off: each publisher lowered goes back to the top layer.
    /// - Throws: 3065, 3035.
    public func disableAdaptiveSubscription() async throws(VideoSDKError) {
        try checkJoined()
        adaptiveTask?.cancel()
        adaptiveTask = nil
        let lowered = adaptive.lowered
        adaptive = AdaptiveSubscription()
        for id in lowered { try? await participants[id]?.setQuality(.high) }
    }

    /// Whether adaptive subscription is on.
    public var isAdaptiveSubscriptionEnabled: Bool { adaptiveTask != nil }

    /// One round: each remote video's counters in, a layer request out where it changes.
    func adaptSubscriptions(now: Double) async {
        for participant in participants.values.sorted(by: { $0.id < $1.id }) {
            guard let video = participant.stream(of: .VIDEO)?.remoteVideoTrack else {
                adaptive.forget(participant.id)
                continue
            }
            let counted = video.statistics
            // The path's loss before repair: a packet that came again on RTX was lost on the way
            // too (and counts among those received).
            let sample = AdaptiveSubscription.Sample(packetsReceived: counted.packetsReceived,
                                                     packetsLost: counted.packetsLost + counted.packetsRetransmitted)
            if let quality = adaptive.update(participant.id, sample, now: now) {
                do {
                    try await participant.setQuality(quality)
                } catch {
                    report(error)
                }
            }
        }
    }
}
