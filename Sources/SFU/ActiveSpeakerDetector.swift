/// The room's active speaker from RFC 6464 audio levels, one decision per window.
///
/// Each window the router hands over each participant's average level in dBov (the mean of
/// −level over its packets, −127 with no packets, for example during DTX silence). Then:
/// - nobody above the silence level: the speaker holds (and clears after `silenceTimeout`, if set);
/// - the loudest is the speaker already: nothing changes;
/// - the loudest is someone else and louder than the speaker (by `switchMargin` while the speaker
///   still speaks): after `windowsToSwitch` such windows in a row, they take over.
/// So a cough does not move the layout, and two people talking over each other do not flap it.
struct ActiveSpeakerDetector {
    let configuration: SpeakerConfiguration
    private(set) var speaker: ParticipantID?
    private var candidate: ParticipantID?
    private var streak = 0
    private var lastSpeech: Double = -.infinity

    init(configuration: SpeakerConfiguration) {
        self.configuration = configuration
    }

    /// Closes one window. Returns the new speaker when it changed (`.some(nil)` when it cleared).
    mutating func closeWindow(levels: [(participant: ParticipantID, dBov: Double)], now: Double) -> ParticipantID?? {
        let threshold = -Double(configuration.silenceLevel)
        var loudest: (participant: ParticipantID, dBov: Double)?
        var current = -127.0
        for entry in levels {
            if entry.participant == speaker { current = max(current, entry.dBov) }
            guard entry.dBov > threshold else { continue }
            if loudest == nil || entry.dBov > loudest?.dBov ?? -.infinity { loudest = entry }
        }
        guard let loudest else {
            candidate = nil
            streak = 0
            if let timeout = configuration.silenceTimeout, speaker != nil, now - lastSpeech >= timeout {
                speaker = nil
                return .some(nil)
            }
            return nil
        }
        lastSpeech = now
        if loudest.participant == speaker {
            candidate = nil
            streak = 0
            return nil
        }
        let currentSpeaks = current > threshold
        guard loudest.dBov > current + (currentSpeaks ? configuration.switchMargin : 0) else {
            candidate = nil
            streak = 0
            return nil
        }
        if candidate == loudest.participant {
            streak += 1
        } else {
            candidate = loudest.participant
            streak = 1
        }
        guard streak >= configuration.windowsToSwitch else { return nil }
        speaker = loudest.participant
        candidate = nil
        streak = 0
        return .some(speaker)
    }

    /// A participant left (their last audio producer went): they cannot stay the speaker.
    mutating func remove(_ participant: ParticipantID) -> ParticipantID?? {
        if candidate == participant {
            candidate = nil
            streak = 0
        }
        guard speaker == participant else { return nil }
        speaker = nil
        return .some(nil)
    }
}
