import Media

/// A camera picture as the model takes it: RGB24 at the model's size, each pixel the average of
/// the 2x2 camera pixels nearest its centre (stretched if the camera is not 16:9: the mask is
/// stretched back the same way).
public struct ModelPicture: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let rgb: [UInt8]

    public init(_ frame: VideoFrame, width: Int, height: Int) {
        self.width = width
        self.height = height
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        // The left (top) of the two camera pixels averaged; the other is the next one, or the same
        // one at a picture's last column (row).
        let columns = (0..<width).map { max(0, min(frame.width - 2, Int((Double($0) + 0.5) * Double(frame.width) / Double(width)) - 1)) }
        let nextColumn = frame.width > 1 ? 1 : 0
        let nextRow = frame.height > 1 ? frame.width : 0
        frame.y.withUnsafeBufferPointer { luma in
            frame.u.withUnsafeBufferPointer { u in
                frame.v.withUnsafeBufferPointer { v in
                    rgb.withUnsafeMutableBufferPointer { out in
                        for row in 0..<height {
                            let top = max(0, min(frame.height - 2, Int((Double(row) + 0.5) * Double(frame.height) / Double(height)) - 1))
                            for (column, left) in columns.enumerated() {
                                let at = top * frame.width + left
                                let l = (Int(luma[at]) + Int(luma[at + nextColumn]) + Int(luma[at + nextRow])
                                    + Int(luma[at + nextRow + nextColumn]) + 2) / 4
                                let chroma = (top / 2) * frame.chromaWidth + left / 2
                                let (r, g, b) = Self.rgb(y: l, u: Int(u[chroma]), v: Int(v[chroma]))
                                let pixel = (row * width + column) * 3
                                out[pixel] = r
                                out[pixel + 1] = g
                                out[pixel + 2] = b
                            }
                        }
                    }
                }
            }
        }
        self.rgb = rgb
    }

    /// BT.601 limited range to RGB, in 16.16 fixed point.
    @inline(__always)
    static func rgb(y: Int, u: Int, v: Int) -> (UInt8, UInt8, UInt8) {
        let c = (y - 16) * 76_309
        let d = u - 128
        let e = v - 128
        let clamp = { (value: Int) -> UInt8 in UInt8(clamping: (value + 32_768) >> 16) }
        return (clamp(c + 104_597 * e), clamp(c - 25_675 * d - 53_279 * e), clamp(c + 132_201 * d))
    }
}
