import Testing

/// Suites that start rooms with browsers or aiortc peers take turns across test targets: every
/// test target runs in one process, and on two cores two rooms of headless Chromium at once make
/// each other late. A `.serialized` parent orders the suites inside one target; this trait on
/// each such parent makes the parents of different targets wait for each other too. On a single
/// test the wait counts against the test's time limit (the live suites before it can take longer
/// than ten minutes), so a test that needs a turn goes in a suite of its own (`SocketFloodTests`).
///
/// `@Suite(.serialized, .oneRoomAtATime) enum LivePipelineSuites {}`. Never mark a test inside a
/// marked suite: it would wait for its own suite's turn.
public struct OneRoomAtATime: SuiteTrait, TestTrait, TestScoping {
    /// On a suite the scope is the whole suite, not each test in it (`.serialized` orders those).
    public var isRecursive: Bool { false }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        await RoomTurns.shared.acquire()
        do {
            try await function()
        } catch {
            await RoomTurns.shared.release()
            throw error
        }
        await RoomTurns.shared.release()
    }
}

extension Trait where Self == OneRoomAtATime {
    /// The suite (or test) waits for any other so marked, in any target, to finish first.
    public static var oneRoomAtATime: Self { OneRoomAtATime() }
}

/// One turn at a time, handed to waiters in the order they asked.
actor RoomTurns {
    static let shared = RoomTurns()
    /// The hardening suites' turns (`OneAttackAtATime`).
    static let attacks = RoomTurns()
    private var taken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard taken else {
            taken = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            taken = false
        } else {
            // The turn passes straight to the next suite: `taken` stays true.
            waiting.removeFirst().resume()
        }
    }
}
