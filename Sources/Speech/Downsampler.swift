import Foundation

/// 48 kHz to 16 kHz, the rate speech engines take: a low-pass FIR filter (a Blackman-windowed
/// sinc, cut at 7.2 kHz, 48 taps) and every third sample kept. Streaming: blocks of any size
/// give the same samples as one long block.
public struct Downsampler: Sendable {
    static let factor = 3
    static let taps: [Float] = {
        let count = 48, cutoff = 7_200.0 / 48_000
        var taps = (0..<count).map { index -> Double in
            let x = Double(index) - Double(count - 1) / 2
            let sinc = x == 0 ? 2 * cutoff : sin(2 * .pi * cutoff * x) / (.pi * x)
            let window = 0.42 - 0.5 * cos(2 * .pi * Double(index) / Double(count - 1)) + 0.08 * cos(4 * .pi * Double(index) / Double(count - 1))
            return sinc * window
        }
        let sum = taps.reduce(0, +)
        taps = taps.map { $0 / sum }
        return taps.map(Float.init)
    }()

    /// The last samples of the previous block (the filter's memory), then the new ones.
    private var history = [Float](repeating: 0, count: taps.count - 1)
    /// Where the next kept sample is, counted from the start of `history`.
    private var phase = 0

    public init() {}

    /// Filters and decimates mono 48 kHz samples.
    public mutating func process(_ input: [Float]) -> [Float] {
        let taps = Self.taps
        let buffer = history + input
        var output: [Float] = []
        output.reserveCapacity(input.count / Self.factor + 1)
        var position = phase
        buffer.withUnsafeBufferPointer { samples in
            while position + taps.count <= samples.count {
                var sum: Float = 0
                for tap in 0..<taps.count { sum += taps[tap] * samples[position + tap] }
                output.append(sum)
                position += Self.factor
            }
        }
        let keep = taps.count - 1
        phase = position - (buffer.count - keep)
        history = Array(buffer.suffix(keep))
        return output
    }
}
