/// Steadies one camera's masks over time. The model's answer for a pixel that stays put wavers
/// from picture to picture (an edge of hair, a hand, a shadow flickering in and out of the
/// person), which shows as a shimmering outline; where a pixel's new value is near its last
/// one, the two are averaged (an exponential average, so a steady wobble shrinks each picture).
/// Where the value moved far (the person moved), the new one is taken at once, so nothing of
/// the background trails behind a movement. A value type: its owner keeps it for its camera.
public struct MaskSmoother: Sendable {
    /// A change of a pixel's value up to this (of 255) is taken as the model wavering and
    /// averaged; a larger one is a movement, taken as it is.
    public static let steadyChange = 80
    private var last: PersonMask?

    public init() {}

    /// The mask to use for this picture; the first one, or one of another size, as it is.
    public mutating func smooth(_ mask: PersonMask) -> PersonMask {
        guard let last, last.width == mask.width, last.height == mask.height else {
            self.last = mask
            return mask
        }
        var values = mask.values
        last.values.withUnsafeBufferPointer { old in
            values.withUnsafeMutableBufferPointer { new in
                for index in 0..<min(old.count, new.count) {
                    let now = Int(new[index]), before = Int(old[index])
                    if abs(now - before) <= Self.steadyChange { new[index] = UInt8(truncatingIfNeeded: (now + before + 1) >> 1) }
                }
            }
        }
        let smoothed = PersonMask(width: mask.width, height: mask.height, values: values) ?? mask
        self.last = smoothed
        return smoothed
    }

    /// Forgets the last mask (a new camera, a segmenter started again).
    public mutating func reset() {
        last = nil
    }
}
