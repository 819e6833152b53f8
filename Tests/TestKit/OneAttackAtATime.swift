import Testing

/// The hardening suites' attacks take turns with each other, across suites: `HardeningTests`
/// runs one attack at a time inside itself, and `SocketFloodTests` (a suite of its own, for its
/// room turn) must not flood while another attack floods the same two cores (a CI run had its
/// probe unanswered for 4 s while `joinsDoNotHoldOtherMembersUp` joined 2,472 times beside it).
/// With `withARoomsTurn`, the suite then also waits for a room's turn (`OneRoomAtATime`), taken
/// after the attack's, so a suite waiting for an attack to end holds no room's turn meanwhile.
public struct OneAttackAtATime: SuiteTrait, TestScoping {
    let withARoomsTurn: Bool

    /// The scope is the whole suite, not each test in it.
    public var isRecursive: Bool { false }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        await RoomTurns.attacks.acquire()
        if withARoomsTurn { await RoomTurns.shared.acquire() }
        do {
            try await function()
        } catch {
            await release()
            throw error
        }
        await release()
    }

    private func release() async {
        if withARoomsTurn { await RoomTurns.shared.release() }
        await RoomTurns.attacks.release()
    }
}

extension Trait where Self == OneAttackAtATime {
    /// The suite waits for any other attack suite, in any target, to finish first.
    public static func oneAttackAtATime(withARoomsTurn: Bool = false) -> Self { OneAttackAtATime(withARoomsTurn: withARoomsTurn) }
}
