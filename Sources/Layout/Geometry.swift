/// A size in pixels.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var aspect: Double { height > 0 ? Double(width) / Double(height) : 1 }
    public var area: Int { width * height }
    public var description: String { "\(width)x\(height)" }
}

/// A rectangle in pixels, origin top-left.
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var size: Size { Size(width: width, height: height) }
    public var area: Int { width * height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Every edge on an even pixel, as YUV 4:2:0 needs (one chroma sample per 2×2 block):
    /// the origin is rounded down and the far edges are rounded down too.
    public var evenAligned: Rect {
        let left = x & ~1, top = y & ~1
        let right = maxX & ~1, bottom = maxY & ~1
        return Rect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    public var isEvenAligned: Bool { x % 2 == 0 && y % 2 == 0 && width % 2 == 0 && height % 2 == 0 }

    public func contains(_ other: Rect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    public func intersects(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// This rectangle shrunk by `amount` on every side.
    public func inset(by amount: Int) -> Rect {
        Rect(x: x + amount, y: y + amount, width: max(0, width - 2 * amount), height: max(0, height - 2 * amount))
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
