import Capture
import Foundation
import Log
import Media
import Synchronization

/// Plays the room's sound on an ALSA playback device: each remote audio track's decoded sound
/// (`attach`), mixed (`PlayoutMixer`), written by one thread every `tick` seconds as much as the
/// clock says is due, after a cushion of silence. The device's own clock may run a little
/// faster or slower than this one: when the device has no room, what is due is dropped; when it
/// ran dry, ALSA's underrun is recovered from. Concurrency: the mixer behind a `Mutex`, the
/// device owned by the thread; the tracks push from their receive threads.
public final class SpeakerPlayout: Sendable {
    /// Which device, as ALSA names it (`default`: the user's, from `~/.asoundrc` or the
    /// system's), and optionally its definition in ALSA's configuration syntax.
    public struct Output: Sendable, Equatable {
        public var device: String
        public var configuration: String?

        public init(device: String = "default", configuration: String? = nil) {
            self.device = device
            self.configuration = configuration
        }
    }

    public let output: Output
    private let mixer = Mutex(PlayoutMixer())
    private let running = Atomic<Bool>(true)
    private let written = Atomic<Int>(0)
    private let failure = Mutex<ALSAError?>(nil)
    let tick: Double

    /// Opens the device (throws when it does not open) and starts playing silence.
    public init(output: Output, tick: Double = 0.01, clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) throws(ALSAError) {
        self.output = output
        self.tick = tick
        let pcm = try ALSAPlaybackPCM(device: output.device, configuration: output.configuration, bufferMicroseconds: 120_000)
        // The thread holds the playout weakly: dropping it stops the sound as `stop()` does.
        let reference = WeakReference(self)
        let thread = Thread { Self.play(pcm, for: reference, clock: clock) }
        thread.name = "revue-speaker"
        thread.start()
    }

    deinit {
        running.store(false, ordering: .releasing)
    }

    /// Plays a source from now on (`id` names it, e.g. the participant's id): give the returned
    /// closure each piece of its decoded sound, from any thread.
    public func attach(_ id: String) -> @Sendable (AudioChunk) -> Void {
        mixer.withLock { $0.add(id) }
        return { [weak self] chunk in self?.mixer.withLock { $0.push(chunk, from: id) } }
    }

    /// Stops playing the source.
    public func detach(_ id: String) {
        mixer.withLock { $0.remove(id) }
    }

    /// Stops the thread and closes the device (the thread closes it within a tick).
    public func stop() {
        running.store(false, ordering: .releasing)
    }

    /// Samples written to the device so far.
    public var samplesWritten: Int { written.load(ordering: .relaxed) }

    /// Sources being played.
    public var sourceCount: Int { mixer.withLock { $0.sourceCount } }

    /// Why playing stopped on its own (the device went away), if it did.
    public var error: ALSAError? { failure.withLock { $0 } }

    /// What the thread holds: the playout, weakly (only for the length of a tick at a time).
    private final class WeakReference: Sendable {
        weak let playout: SpeakerPlayout?
        init(_ playout: SpeakerPlayout) { self.playout = playout }
    }

    /// The thread: while the playout lives and runs, writes what is due each tick.
    private static func play(_ pcm: ALSAPlaybackPCM, for reference: WeakReference, clock: @Sendable () -> Double) {
        let rate = Double(ALSAPlaybackPCM.sampleRate)
        // A cushion of silence first, so the first tick's lateness is not an underrun.
        do {
            try pcm.write([Int16](repeating: 0, count: Int(rate * 0.04)))
            let start = clock()
            var due = 0
            while let current = reference.playout, current.running.load(ordering: .acquiring) {
                let tick = current.tick
                Thread.sleep(forTimeInterval: tick)
                let now = Int((clock() - start) * rate)
                // After a stall (a suspended process), no more than a tenth of a second at once.
                let count = min(now - due, Int(rate * 0.1))
                due = now
                guard count > 0 else { continue }
                let samples = current.mixer.withLock { $0.pull(count) }
                let room = try pcm.room()
                try pcm.write(room >= samples.count ? samples : Array(samples.prefix(room)))
                current.written.add(count, ordering: .relaxed)
            }
        } catch {
            reference.playout?.failure.withLock { $0 = error }
            Logger(label: "speaker").warning("the speaker stopped", ["device": .string(pcm.device), "error": .string("\(error)")])
        }
    }
}
