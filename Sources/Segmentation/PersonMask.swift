/// How sure the model is that each pixel of a picture shows a person: 0 (background) to 255
/// (person), row by row, at the model's size (256x144 for the landscape model).
public struct PersonMask: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let values: [UInt8]

    /// Nil when `values` is not `width` × `height` long.
    public init?(width: Int, height: Int, values: [UInt8]) {
        guard width > 0, height > 0, values.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.values = values
    }

    /// A mask of one value: everyone (255) or no one (0).
    public init(width: Int, height: Int, filledWith value: UInt8) {
        self.width = max(1, width)
        self.height = max(1, height)
        values = [UInt8](repeating: value, count: self.width * self.height)
    }

    /// The share of pixels (0...1) in the rectangle, given in fractions of the picture, that are
    /// more likely a person than not.
    public func personShare(x: ClosedRange<Double> = 0...1, y: ClosedRange<Double> = 0...1) -> Double {
        let columns = Int(x.lowerBound * Double(width))..<max(Int(x.lowerBound * Double(width)) + 1, Int(x.upperBound * Double(width)))
        let rows = Int(y.lowerBound * Double(height))..<max(Int(y.lowerBound * Double(height)) + 1, Int(y.upperBound * Double(height)))
        var person = 0
        var all = 0
        for row in rows.clamped(to: 0..<height) {
            for column in columns.clamped(to: 0..<width) {
                all += 1
                if values[row * width + column] > 127 { person += 1 }
            }
        }
        return all == 0 ? 0 : Double(person) / Double(all)
    }
}
