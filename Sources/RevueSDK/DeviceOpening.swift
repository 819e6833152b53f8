import Foundation
import Log
import Synchronization

/// A device opened on a thread of its own, so a slow one (a camera file behind a slow URL, a
/// microphone the system is slow to give) never holds the main actor. The seeds' rule for
/// `createCameraVideoTrack` and `createMicrophoneAudioTrack`: "waits up to 2 seconds for the
/// camera to open and throws these errors in that time. A later failure ends the track".
///
/// `wait(upTo:)` returns the device when it opened in time, throws its error when it failed in
/// time, and returns nil when it is still opening: the caller then sends a stand-in
/// (`PendingCamera`, `PendingMicrophone`) and ends the track if the device fails later.
final class DeviceOpening<Source: Sendable>: Sendable {
    /// How long the calls wait for a device: the seeds' 2 seconds.
    static var patience: Double { 2 }

    private struct State {
        var result: Result<Source, VideoSDKError>?
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// Told the outcome once it is known.
        var whenSettled: [@Sendable (Result<Source, VideoSDKError>) -> Void] = []
    }

    private let state = Mutex(State())

    init(label: String, _ open: @escaping @Sendable () throws(VideoSDKError) -> Source) {
        Thread.detachNewThread { [self] in
            let started = Date()
            let result = Result<Source, VideoSDKError>(catching: open)
            let late = Date().timeIntervalSince(started) > Self.patience
            if late {
                Logger(label: "sdk").info("a device opened after the wait", ["device": .string(label),
                                                                             "seconds": .double(Date().timeIntervalSince(started)),
                                                                             "failed": .bool((try? result.get()) == nil)])
            }
            finish(result)
        }
    }

    /// The device, once it opened; nil while it opens or after it failed.
    var opened: Source? { state.withLock { state in (try? state.result?.get()) ?? nil } }

    /// Waits until the device opened or failed, or `seconds` passed (nil: still opening).
    func wait(upTo seconds: Double) async throws(VideoSDKError) -> Source? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                guard state.result == nil else { return true }
                state.waiters.append(continuation)
                return false
            }
            if done {
                continuation.resume()
            } else {
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in wakeWaiters() }
            }
        }
        return try state.withLock { $0.result }?.get()
    }

    /// Calls `handler` if the device fails (at once if it has).
    func whenFailed(_ handler: @escaping @Sendable (VideoSDKError) -> Void) {
        whenSettled { if case .failure(let error) = $0 { handler(error) } }
    }

    /// Calls `handler` with the device once it opens (at once if it has): to watch it, or, for
    /// a track that ended first, to close it.
    func whenOpened(_ handler: @escaping @Sendable (Source) -> Void) {
        whenSettled { if case .success(let device) = $0 { handler(device) } }
    }

    private func whenSettled(_ handler: @escaping @Sendable (Result<Source, VideoSDKError>) -> Void) {
        let settled = state.withLock { state -> Result<Source, VideoSDKError>? in
            if state.result == nil { state.whenSettled.append(handler) }
            return state.result
        }
        if let settled { handler(settled) }
    }

    private func finish(_ result: Result<Source, VideoSDKError>) {
        let (waiters, settled) = state.withLock { state in
            state.result = result
            defer {
                state.waiters = []
                state.whenSettled = []
            }
            return (state.waiters, state.whenSettled)
        }
        settled.forEach { $0(result) }
        waiters.forEach { $0.resume() }
    }

    private func wakeWaiters() {
        let waiters = state.withLock { state in
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}
