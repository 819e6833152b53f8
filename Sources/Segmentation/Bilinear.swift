/// Resizes a plane of values by bilinear interpolation, pixel centres aligned (the mask to the
/// camera's size, a blurred plane back to its own). Weights are 8-bit fixed point.
enum Bilinear {
    /// - Parameter as: the values' type out (`UInt8` for a picture's plane: values must fit).
    static func resize<Value: FixedWidthInteger>(_ values: [UInt16], width: Int, height: Int, toWidth outWidth: Int, height outHeight: Int,
                                                 as: Value.Type = UInt16.self) -> [Value]
    {
        guard width > 0, height > 0, outWidth > 0, outHeight > 0, values.count == width * height else {
            return [Value](repeating: 0, count: max(0, outWidth) * max(0, outHeight))
        }
        let columns = (0..<outWidth).map { taps(Double($0), scale: Double(width) / Double(outWidth), size: width) }
        var out = [Value](repeating: 0, count: outWidth * outHeight)
        values.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for row in 0..<outHeight {
                    let (top, bottom, down) = taps(Double(row), scale: Double(height) / Double(outHeight), size: height)
                    let upper = top * width
                    let lower = bottom * width
                    for (column, (left, right, across)) in columns.enumerated() {
                        let a = Int(source[upper + left]) * (256 - across) + Int(source[upper + right]) * across
                        let b = Int(source[lower + left]) * (256 - across) + Int(source[lower + right]) * across
                        target[row * outWidth + column] = Value(truncatingIfNeeded: (a * (256 - down) + b * down + 32_768) >> 16)
                    }
                }
            }
        }
        return out
    }

    /// The two source samples around an output sample and the second one's weight (0...256).
    private static func taps(_ index: Double, scale: Double, size: Int) -> (Int, Int, Int) {
        let position = min(Double(size - 1), max(0, (index + 0.5) * scale - 0.5))
        let first = Int(position)
        return (first, min(size - 1, first + 1), Int((position - Double(first)) * 256))
    }
}
