import Foundation

/// A synthetic microphone: a sine tone, on all the time or for part of each cycle (so several
/// publishers can take turns, and the room's active speaker changes as in a conversation).
public final class ToneMicrophone: MicrophoneSource, Sendable {
    public let frequency: Double
    public let amplitude: Float
    /// When set, the tone sounds only from `on.lowerBound` to `on.upperBound` seconds of every
    /// `period` seconds.
    public let cycle: (period: Double, on: Range<Double>)?

    public init(frequency: Double, amplitude: Float = 0.3, cycle: (period: Double, on: Range<Double>)? = nil) {
        self.frequency = frequency
        self.amplitude = amplitude
        self.cycle = cycle
    }

    public func samples(from start: Int, count: Int) -> [Float] {
        let step = 2 * Double.pi * frequency / 48_000
        return (start..<(start + count)).map { index in
            let seconds = Double(index) / 48_000
            if let cycle, !cycle.on.contains(seconds.truncatingRemainder(dividingBy: cycle.period)) { return 0 }
            // The phase from the sample number alone (modulo one period), so any position is exact.
            let phase = (Double(index) * step).truncatingRemainder(dividingBy: 2 * Double.pi)
            return amplitude * Float(sin(phase))
        }
    }
}
