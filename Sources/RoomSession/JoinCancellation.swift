import Synchronization

/// Withdraws a join that is still under way (the SDK's `leave()` during `join()`, also while an
/// `ask_join` guest waits for entry): the joining thread sees it within a quarter second, sends
/// `leave` and gives up with a `RoomJoinError`.
public final class JoinCancellation: Sendable {
    private let cancelled = Atomic<Bool>(false)

    public init() {}

    public func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
}
