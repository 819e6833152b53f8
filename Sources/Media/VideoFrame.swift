/// A picture in planar YUV 4:2:0 (I420), with the time it belongs to on the session clock.
///
/// Planes are tightly packed: the luma stride is the width and the chroma stride is half the
/// width, rounded up. It is a value: copies share storage until one is written.
public struct VideoFrame: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var y: [UInt8]
    public var u: [UInt8]
    public var v: [UInt8]
    /// Seconds since the session began.
    public var mediaTime: Double

    public var chromaWidth: Int { (width + 1) / 2 }
    public var chromaHeight: Int { (height + 1) / 2 }

    /// A frame filled with one colour.
    public init(width: Int, height: Int, color: YUVColor = .black, mediaTime: Double = 0) {
        precondition(width > 0 && height > 0, "a frame needs a positive size")
        self.width = width
        self.height = height
        y = [UInt8](repeating: color.y, count: width * height)
        u = [UInt8](repeating: color.u, count: ((width + 1) / 2) * ((height + 1) / 2))
        v = [UInt8](repeating: color.v, count: ((width + 1) / 2) * ((height + 1) / 2))
        self.mediaTime = mediaTime
    }

    /// A frame from planes that are already packed.
    public init(width: Int, height: Int, y: [UInt8], u: [UInt8], v: [UInt8], mediaTime: Double) {
        precondition(y.count == width * height && u.count == ((width + 1) / 2) * ((height + 1) / 2) && v.count == u.count,
                     "plane sizes do not match \(width)x\(height)")
        self.width = width
        self.height = height
        self.y = y
        self.u = u
        self.v = v
        self.mediaTime = mediaTime
    }

    /// Copies planes with arbitrary strides (a decoder's buffers) into a packed frame.
    public init(width: Int, height: Int, planes: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>),
                strides: (Int, Int, Int), mediaTime: Double)
    {
        self.width = width
        self.height = height
        self.mediaTime = mediaTime
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        y = VideoFrame.pack(planes.0, stride: strides.0, width: width, height: height)
        u = VideoFrame.pack(planes.1, stride: strides.1, width: chromaWidth, height: chromaHeight)
        v = VideoFrame.pack(planes.2, stride: strides.2, width: chromaWidth, height: chromaHeight)
    }

    private static func pack(_ source: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: width * height) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            for row in 0..<height {
                (base + row * width).update(from: source + row * stride, count: width)
            }
            count = width * height
        }
    }

    /// The colour of one pixel, for tests and for sampling.
    public func pixel(x: Int, y row: Int) -> YUVColor {
        let cx = x / 2, cy = row / 2
        return YUVColor(y: y[row * width + x], u: u[cy * chromaWidth + cx], v: v[cy * chromaWidth + cx])
    }
}

/// A colour in limited-range BT.601 Y'CbCr, as H.264 and VP8 carry it.
public struct YUVColor: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var y: UInt8
    public var u: UInt8
    public var v: UInt8

    public init(y: UInt8, u: UInt8, v: UInt8) {
        self.y = y
        self.u = u
        self.v = v
    }

    /// From 8-bit sRGB (BT.601 limited range, the matrix libswscale uses by default).
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        let r = Double(red), g = Double(green), b = Double(blue)
        let luma = 16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255
        let cb = 128 + (-37.797 * r - 74.203 * g + 112.0 * b) / 255
        let cr = 128 + (112.0 * r - 93.786 * g - 18.214 * b) / 255
        y = UInt8(max(16, min(235, luma.rounded())))
        u = UInt8(max(16, min(240, cb.rounded())))
        v = UInt8(max(16, min(240, cr.rounded())))
    }

    /// From `0xRRGGBB`.
    public init(rgb: UInt32) {
        self.init(red: UInt8(truncatingIfNeeded: rgb >> 16), green: UInt8(truncatingIfNeeded: rgb >> 8),
                  blue: UInt8(truncatingIfNeeded: rgb))
    }

    public static let black = YUVColor(y: 16, u: 128, v: 128)
    public static let white = YUVColor(y: 235, u: 128, v: 128)

    /// The largest difference of any component.
    public func distance(to other: YUVColor) -> Int {
        max(abs(Int(y) - Int(other.y)), abs(Int(u) - Int(other.u)), abs(Int(v) - Int(other.v)))
    }

    public var description: String { "YUV(\(y), \(u), \(v))" }
}
