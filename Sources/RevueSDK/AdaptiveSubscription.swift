/// Which simulcast layer to ask of each publisher (`RemoteParticipant.setQuality`) from how
/// their video arrives here, for `Room.enableAdaptiveSubscription`: a state machine with time
/// injected, fed each participant's packet counters every `interval`.
///
/// - Down a layer when more than 5 % of a stretch's packets were lost (the path to this client
///   does not carry the layer; a smaller one loses less and recovers faster).
/// - Up a layer after 10 s in a row under 1 % loss, one layer at a time, so a path that only
///   just copes is not pushed straight back over.
/// - A stretch with fewer than 20 packets decides nothing (a paused or silent publisher).
///
/// "Visibility", the seed's other input, is the app's: on Linux there is no view to be hidden,
/// so every publisher counts as visible.
struct AdaptiveSubscription {
    /// How often the room samples the counters.
    static let interval = 2.0
    static let lossToStepDown = 0.05
    static let lossToStepUp = 0.01
    static let goodSecondsToStepUp = 10.0
    static let fewestPackets = 20

    /// One participant's cumulative counters of their video.
    struct Sample: Sendable, Equatable {
        var packetsReceived: Int
        var packetsLost: Int
    }

    private struct Tracked {
        var quality: VideoQuality = .high
        var last: Sample
        var goodSince: Double?
    }

    private var tracked: [String: Tracked] = [:]

    /// The layer asked of `participantID` now (high until a step down).
    func quality(of participantID: String) -> VideoQuality { tracked[participantID]?.quality ?? .high }

    /// Takes a participant's counters at `now`; the layer to ask for when it changes, else nil.
    mutating func update(_ participantID: String, _ sample: Sample, now: Double) -> VideoQuality? {
        guard var state = tracked[participantID] else {
            tracked[participantID] = Tracked(last: sample)
            return nil
        }
        let received = max(0, sample.packetsReceived - state.last.packetsReceived)
        let lost = max(0, sample.packetsLost - state.last.packetsLost)
        // Counters that went back (a new track behind the stream) start the count again.
        state.last = sample
        defer { tracked[participantID] = state }
        guard received + lost >= Self.fewestPackets else { return nil }
        let loss = Double(lost) / Double(received + lost)
        if loss > Self.lossToStepDown {
            state.goodSince = nil
            guard let lower = Self.lower(state.quality) else { return nil }
            state.quality = lower
            return lower
        }
        guard loss < Self.lossToStepUp else {
            state.goodSince = nil
            return nil
        }
        let since = state.goodSince ?? now
        state.goodSince = since
        guard now - since >= Self.goodSecondsToStepUp, let higher = Self.higher(state.quality) else { return nil }
        state.quality = higher
        state.goodSince = now
        return higher
    }

    /// Forgets a participant who left or whose video stopped.
    mutating func forget(_ participantID: String) {
        tracked[participantID] = nil
    }

    /// The participants asked for less than the top layer.
    var lowered: [String] { tracked.filter { $0.value.quality != .high }.map(\.key).sorted() }

    private static func lower(_ quality: VideoQuality) -> VideoQuality? {
        switch quality {
        case .high: .medium
        case .medium: .low
        case .low: nil
        }
    }

    private static func higher(_ quality: VideoQuality) -> VideoQuality? {
        switch quality {
        case .high: nil
        case .medium: .high
        case .low: .medium
        }
    }
}
