import JobSpec

/// The rules of a job's states: each event, from each state, gives the transitions to make
/// (with the webhook each one sends) or says why the event does not apply. A pure function,
/// tested one line per rule.
public enum JobStateMachine {
    public enum Event: Sendable, Equatable {
        /// The pipeline produces output.
        case started
        /// HLS: the playlists are published (three segments).
        case playable
        /// The API asked the job to stop.
        case stopRequested
        /// The pipeline ended and its outputs are finished.
        case finished
        /// The job cannot go on.
        case failed
    }

    public struct Transition: Sendable, Equatable {
        public var to: JobState
        /// The webhook event: `recording-started`, `hls-playable`, …
        public var webhook: String

        public init(to: JobState, webhook: String) {
            self.to = to
            self.webhook = webhook
        }
    }

    public enum Outcome: Sendable, Equatable {
        case transitions([Transition])
        /// Nothing to do: the job is already there (a repeated stop, a late event).
        case ignored(String)
        /// The event cannot happen in this state.
        case rejected(String)
    }

    public static func handle(_ event: Event, kind: JobKind, state: JobState) -> Outcome {
        func go(_ states: JobState...) -> Outcome {
            .transitions(states.map { Transition(to: $0, webhook: "\(kind.webhookPrefix)-\($0.rawValue.lowercased())") })
        }
        if !state.isActive { return .ignored("the job already ended (\(state.rawValue))") }
        switch (event, state) {
        case (.started, .starting):
            return go(.started)
        case (.started, _):
            return .ignored("already \(state.rawValue)")
        case (.playable, .started) where kind == .hls:
            return go(.playable)
        case (.playable, .starting) where kind == .hls:
            return go(.started, .playable)
        case (.playable, _) where kind != .hls:
            return .rejected("only HLS jobs become playable")
        case (.playable, _):
            return .ignored("already \(state.rawValue)")
        case (.stopRequested, .stopping):
            return .ignored("already stopping")
        case (.stopRequested, _):
            return go(.stopping)
        case (.finished, .stopping):
            return go(.stopped)
        case (.finished, _):
            // The source ended without a stop request: it still passes through STOPPING.
            return go(.stopping, .stopped)
        case (.failed, _):
            return go(.failed)
        }
    }
}
