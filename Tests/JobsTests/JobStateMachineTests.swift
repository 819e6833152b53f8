import JobSpec
import Jobs
import Testing

/// One line per rule.
@Suite struct JobStateMachineTests {
    typealias Machine = JobStateMachine

    static func to(_ kind: JobKind, _ states: JobState...) -> Machine.Outcome {
        .transitions(states.map { Machine.Transition(to: $0, webhook: "\(kind.webhookPrefix)-\($0.rawValue.lowercased())") })
    }

    @Test func theHappyPath() {
        #expect(Machine.handle(.started, kind: .recording, state: .starting) == Self.to(.recording, .started))
        #expect(Machine.handle(.stopRequested, kind: .recording, state: .started) == Self.to(.recording, .stopping))
        #expect(Machine.handle(.finished, kind: .recording, state: .stopping) == Self.to(.recording, .stopped))
    }

    @Test func hlsBecomesPlayable() {
        #expect(Machine.handle(.playable, kind: .hls, state: .started) == Self.to(.hls, .playable))
        #expect(Machine.handle(.playable, kind: .hls, state: .starting) == Self.to(.hls, .started, .playable))
        #expect(Machine.handle(.stopRequested, kind: .hls, state: .playable) == Self.to(.hls, .stopping))
        #expect(Machine.handle(.playable, kind: .recording, state: .started) == .rejected("only HLS jobs become playable"))
        #expect(Machine.handle(.playable, kind: .hls, state: .playable) == .ignored("already PLAYABLE"))
    }

    @Test func stopsAndEnds() {
        #expect(Machine.handle(.stopRequested, kind: .livestream, state: .starting) == Self.to(.livestream, .stopping))
        #expect(Machine.handle(.stopRequested, kind: .livestream, state: .stopping) == .ignored("already stopping"))
        #expect(Machine.handle(.finished, kind: .livestream, state: .started) == Self.to(.livestream, .stopping, .stopped))
        #expect(Machine.handle(.failed, kind: .livestream, state: .started) == Self.to(.livestream, .failed))
        #expect(Machine.handle(.failed, kind: .hls, state: .stopping) == Self.to(.hls, .failed))
    }

    @Test func endedJobsIgnoreEverything() {
        for event in [Machine.Event.started, .playable, .stopRequested, .finished, .failed] {
            #expect(Machine.handle(event, kind: .recording, state: .stopped) == .ignored("the job already ended (STOPPED)"))
            #expect(Machine.handle(event, kind: .recording, state: .failed) == .ignored("the job already ended (FAILED)"))
        }
        #expect(Machine.handle(.started, kind: .recording, state: .started) == .ignored("already STARTED"))
    }

    @Test func namesAreThePlatformsNames() {
        #expect(JobState.playable.clientState(.hls) == "HLS_PLAYABLE")
        #expect(JobState.starting.clientState(.livestream) == "LIVESTREAM_STARTING")
        #expect(JobState.stopped.clientState(.recording) == "RECORDING_STOPPED")
        #expect(JobState.started.clientState(.transcription) == "TRANSCRIPTION_STARTED")
        #expect(JobKind.allCases.map(\.failureCode) == [5001, 5003, 5002, 5007])
    }
}
