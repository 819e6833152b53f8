import Media

/// A camera picture blurred beyond recognition, cheaply: each plane is shrunk to a quarter of
/// its size by averaging, box-blurred there twice (close to a Gaussian), and scaled back up. A
/// full-size Gaussian of the same strength costs about ten times as much.
public enum BlurredPicture {
    /// - Parameter radius: the box radius at a quarter size; 3 makes a blur of about 24 camera pixels.
    public static func of(_ frame: VideoFrame, radius: Int = 3) -> VideoFrame {
        var out = frame
        out.y = blur(frame.y, width: frame.width, height: frame.height, radius: radius)
        out.u = blur(frame.u, width: frame.chromaWidth, height: frame.chromaHeight, radius: max(1, radius / 2))
        out.v = blur(frame.v, width: frame.chromaWidth, height: frame.chromaHeight, radius: max(1, radius / 2))
        return out
    }

    static func blur(_ plane: [UInt8], width: Int, height: Int, radius: Int) -> [UInt8] {
        let radius = max(0, radius)
        let factor = 4
        let smallWidth = max(1, width / factor)
        let smallHeight = max(1, height / factor)
        var small = shrink(plane, width: width, height: height, toWidth: smallWidth, height: smallHeight)
        for _ in 0..<2 {
            small = boxBlur(small, width: smallWidth, height: smallHeight, radius: radius, horizontal: true)
            small = boxBlur(small, width: smallWidth, height: smallHeight, radius: radius, horizontal: false)
        }
        return Bilinear.resize(small, width: smallWidth, height: smallHeight, toWidth: width, height: height, as: UInt8.self)
    }

    /// The average of each block of source pixels that maps to one small pixel.
    private static func shrink(_ plane: [UInt8], width: Int, height: Int, toWidth smallWidth: Int, height smallHeight: Int) -> [UInt16] {
        var sums = [UInt32](repeating: 0, count: smallWidth * smallHeight)
        var counts = [UInt32](repeating: 0, count: smallWidth * smallHeight)
        let columns = (0..<width).map { min(smallWidth - 1, $0 * smallWidth / width) }
        plane.withUnsafeBufferPointer { plane in
            columns.withUnsafeBufferPointer { columns in
                sums.withUnsafeMutableBufferPointer { sums in
                    counts.withUnsafeMutableBufferPointer { counts in
                        for row in 0..<height {
                            let smallRow = min(smallHeight - 1, row * smallHeight / height) * smallWidth
                            let line = row * width
                            for column in 0..<width {
                                let target = smallRow + columns[column]
                                sums[target] &+= UInt32(plane[line + column])
                                counts[target] &+= 1
                            }
                        }
                    }
                }
            }
        }
        return zip(sums, counts).map { UInt16(($0 + $1 / 2) / max(1, $1)) }
    }

    /// One pass of a box blur along rows or columns, edges repeated.
    private static func boxBlur(_ plane: [UInt16], width: Int, height: Int, radius: Int, horizontal: Bool) -> [UInt16] {
        var out = [UInt16](repeating: 0, count: plane.count)
        let lines = horizontal ? height : width
        let length = horizontal ? width : height
        let step = horizontal ? 1 : width
        let span = 2 * radius + 1
        plane.withUnsafeBufferPointer { plane in
            out.withUnsafeMutableBufferPointer { out in
                for line in 0..<lines {
                    let start = horizontal ? line * width : line
                    let at = { (index: Int) in Int(plane[start + min(length - 1, max(0, index)) * step]) }
                    var sum = (-radius...radius).reduce(0) { $0 + at($1) }
                    for index in 0..<length {
                        out[start + index * step] = UInt16((sum + span / 2) / span)
                        sum += at(index + radius + 1) - at(index - radius)
                    }
                }
            }
        }
        return out
    }
}
