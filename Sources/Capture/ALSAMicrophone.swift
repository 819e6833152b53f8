import Foundation
import Log
import Synchronization

/// A microphone on Linux: an ALSA capture device (`default`, `plughw:1,0`, and PulseAudio or
/// PipeWire through their ALSA plugins, `pulse` and `pipewire`). A thread of its own reads the
/// device, 20 ms at a time, into a short queue the publisher takes from at its own pace.
///
/// - A device with no clock of its own (a virtual one, such as ALSA's `file` plugin over `null`,
///   which answers every read at once) is read at real time, so it neither spins nor runs ahead.
///   It is told from a card by being a quarter second ahead of real time within its first five
///   seconds, which a card's clock (a few hundred ppm off at worst) never is; a card is never
///   paced, so its drift cannot make the reader fall behind and overrun.
/// - The queue holds at most `maximumQueued` samples: when the device's clock runs ahead of the
///   publisher's, the oldest are dropped down to `targetQueued`, so delay does not build up.
///   When it runs behind, the publisher gets silence until `targetQueued` has come again, rather
///   than a block torn by a gap.
/// - An overrun (the thread was late) is recovered from; any other read error (the device was
///   unplugged) ends capture: `failure` says why, the failure handler is called, and what
///   follows is silence.
public final class ALSAMicrophone: MicrophoneSource, Sendable {
    /// 200 ms.
    public static let maximumQueued = 9_600
    /// 40 ms: two of the publisher's blocks.
    public static let targetQueued = 1_920

    public let device: String
    private let capture: Capture

    /// Opens `device` for capture and starts reading it. `configuration`, in ALSA's
    /// configuration syntax, defines the device in place of the system's and the user's files.
    /// - Throws: `ALSAError` when the device cannot be opened or set to mono 16-bit 48 kHz.
    public init(device: String, configuration: String? = nil) throws(ALSAError) {
        self.device = device
        let capture = Capture(pcm: try ALSACapturePCM(device: device, configuration: configuration))
        self.capture = capture
        let thread = Thread { capture.run() }
        thread.name = "alsa-capture"
        thread.start()
    }

    deinit {
        capture.stopped.store(true, ordering: .relaxed)
    }

    /// The next `count` samples captured, or silence while too few have come. The position is
    /// not used: a live device has no timeline but its own.
    public func samples(from start: Int, count: Int) -> [Float] {
        capture.take(count)
    }

    /// Stops reading; the capture thread closes the device within a fifth of a second.
    public func stop() {
        capture.stopped.store(true, ordering: .relaxed)
    }

    /// Samples read from the device since it was opened.
    public var samplesCaptured: Int { capture.captured.load(ordering: .relaxed) }

    /// Why capture ended, when a read failed.
    public var failure: ALSAError? { capture.failure.withLock { $0 } }

    /// Called once, on the capture thread, when a read fails and capture ends.
    public func setFailureHandler(_ handler: (@Sendable (ALSAError) -> Void)?) {
        capture.failureHandler.withLock { $0 = handler }
    }

    /// What the capture thread and the publisher share. The thread holds it, not the
    /// microphone, so letting go of the microphone stops the thread, which closes the device.
    final class Capture: Sendable {
        let pcm: ALSACapturePCM
        let stopped = Atomic<Bool>(false)
        let captured = Atomic<Int>(0)
        let failure = Mutex<ALSAError?>(nil)
        let failureHandler = Mutex<(@Sendable (ALSAError) -> Void)?>(nil)
        private let queue = Mutex<(samples: [Float], flowing: Bool)>(([], false))
        private let logger = Logger(label: "microphone")

        init(pcm: ALSACapturePCM) {
            self.pcm = pcm
        }

        func run() {
            // The device closes when reading ends, whoever still holds the microphone.
            defer { pcm.close() }
            let clock = ContinuousClock()
            let start = clock.now
            var clockless = false
            var block = [Int16](repeating: 0, count: 960)
            logger.info("capturing", ["device": .string(pcm.device)])
            while !stopped.load(ordering: .relaxed) {
                do {
                    // A bounded wait, so a stalled device still lets the thread see `stopped`.
                    guard try pcm.wait(milliseconds: 200) else { continue }
                    let count = try pcm.read(into: &block)
                    guard count > 0 else { continue }
                    push(block.prefix(count).map { Float($0) / 32_768 })
                    let total = captured.add(count, ordering: .relaxed).newValue
                    let elapsed = Self.seconds(start.duration(to: clock.now))
                    let ahead = Double(total) / Double(ALSACapturePCM.sampleRate) - elapsed
                    if !clockless, ahead > 0.25, elapsed < 5 {
                        clockless = true
                        logger.info("the device has no clock of its own: read at real time", ["device": .string(pcm.device)])
                    }
                    if clockless, ahead > 0.1 { Thread.sleep(forTimeInterval: ahead - 0.05) }
                } catch {
                    failure.withLock { $0 = error }
                    logger.warning("the microphone stopped", ["device": .string(pcm.device), "error": .string("\(error)")])
                    failureHandler.withLock { $0 }?(error)
                    return
                }
            }
        }

        func push(_ samples: [Float]) {
            queue.withLock { queue in
                queue.samples += samples
                if queue.samples.count > ALSAMicrophone.maximumQueued {
                    queue.samples.removeFirst(queue.samples.count - ALSAMicrophone.targetQueued)
                }
            }
        }

        func take(_ count: Int) -> [Float] {
            queue.withLock { queue in
                let needed = queue.flowing ? count : max(count, ALSAMicrophone.targetQueued)
                guard queue.samples.count >= needed else {
                    queue.flowing = false
                    return [Float](repeating: 0, count: count)
                }
                queue.flowing = true
                let taken = Array(queue.samples.prefix(count))
                queue.samples.removeFirst(count)
                return taken
            }
        }

        private static func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        }
    }
}
