/// A writable view of YUV 4:2:0 planes that something else owns: a `VideoFrame`'s arrays, or an
/// encoder's input frame, so a picture can be drawn where it is encoded from instead of being
/// copied there. Each plane has its own stride (a row may be longer than the picture is wide)
/// and holds `stride × rows` bytes (`height` rows of luma, `chromaHeight` of chroma).
///
/// Valid only inside the call that lends it; never keep one.
public struct PlanarImage {
    public let width: Int
    public let height: Int
    public let y: UnsafeMutablePointer<UInt8>
    public let u: UnsafeMutablePointer<UInt8>
    public let v: UnsafeMutablePointer<UInt8>
    /// Bytes from one row to the next, per plane.
    public let yStride: Int
    public let uStride: Int
    public let vStride: Int

    public var chromaWidth: Int { (width + 1) / 2 }
    public var chromaHeight: Int { (height + 1) / 2 }

    public init(width: Int, height: Int, y: UnsafeMutablePointer<UInt8>, u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>,
                yStride: Int, uStride: Int, vStride: Int)
    {
        precondition(width > 0 && height > 0 && yStride >= width && uStride >= (width + 1) / 2 && vStride >= (width + 1) / 2,
                     "planes of \(width)x\(height) need strides of at least the width")
        self.width = width
        self.height = height
        self.y = y
        self.u = u
        self.v = v
        self.yStride = yStride
        self.uStride = uStride
        self.vStride = vStride
    }

    /// The colour of one pixel, for tests and for sampling.
    public func pixel(x: Int, y row: Int) -> YUVColor {
        YUVColor(y: y[row * yStride + x], u: u[(row / 2) * uStride + x / 2], v: v[(row / 2) * vStride + x / 2])
    }
}

extension VideoFrame {
    /// Lends this frame's planes as a `PlanarImage` (written in place: the arrays are made
    /// unique first, so other copies of the frame are not changed).
    public mutating func withPlanarImage<Result>(_ body: (PlanarImage) throws -> Result) rethrows -> Result {
        let width = width, height = height, chromaWidth = chromaWidth
        return try y.withUnsafeMutableBufferPointer { y in
            try u.withUnsafeMutableBufferPointer { u in
                try v.withUnsafeMutableBufferPointer { v in
                    // A frame always has at least one pixel, so none of the planes is empty.
                    guard let yBase = y.baseAddress, let uBase = u.baseAddress, let vBase = v.baseAddress else {
                        preconditionFailure("a frame's planes are never empty")
                    }
                    return try body(PlanarImage(width: width, height: height, y: yBase, u: uBase, v: vBase, yStride: width,
                                                uStride: chromaWidth, vStride: chromaWidth))
                }
            }
        }
    }

    /// A packed copy of an image's planes.
    public init(copying image: PlanarImage, mediaTime: Double = 0) {
        self.init(width: image.width, height: image.height, planes: (UnsafePointer(image.y), UnsafePointer(image.u), UnsafePointer(image.v)),
                  strides: (image.yStride, image.uStride, image.vStride), mediaTime: mediaTime)
    }
}
