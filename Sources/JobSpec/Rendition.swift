/// One rung of an HLS ladder (`config.renditions`, Revue's addition): a picture height, the
/// width that goes with it at 16:9, and the bit rate Revue encodes it at (docs/ENCODING.md).
/// The best rendition is the composite's own size; each other is scaled from it and encoded
/// again, so a ladder costs one composite and one encode per rendition.
public enum Rendition: String, APIEnum, Comparable {
    case p1080 = "1080p", p720 = "720p", p480 = "480p", p360 = "360p", p240 = "240p"

    /// Landscape width and height (portrait swaps them).
    public var size: (width: Int, height: Int) {
        switch self {
        case .p1080: (1920, 1080)
        case .p720: (1280, 720)
        case .p480: (854, 480)
        case .p360: (640, 360)
        case .p240: (426, 240)
        }
    }

    /// Target video bit rate, bits a second: 1080p, 720p and 480p as `config.quality`'s high,
    /// med and low; 360p and 240p on the same curve.
    public var videoBitrate: Int {
        switch self {
        case .p1080: 4_500_000
        case .p720: 2_500_000
        case .p480: 1_000_000
        case .p360: 600_000
        case .p240: 300_000
        }
    }

    /// The quality whose size this is, for the composite (nil below 480p: only a lower rung).
    public var quality: Quality? {
        switch self {
        case .p1080: .high
        case .p720: .med
        case .p480: .low
        case .p360, .p240: nil
        }
    }

    /// Taller first.
    public static func < (lhs: Rendition, rhs: Rendition) -> Bool { lhs.size.height > rhs.size.height }

    /// The most renditions one job encodes.
    public static let most = 3

    /// Reads `config.renditions`: an array of distinct heights' names, best first after sorting,
    /// the best one 480p or more (it is the composite's size).
    public static func validatedLadder(_ value: JSONValue, field: String = "config.renditions") throws(SpecError) -> [Rendition] {
        guard let items = value.arrayValue, !items.isEmpty, items.count <= most else {
            throw SpecError("\(field) must be an array of 1 to \(most) of \(allowedValues.joined(separator: ", "))")
        }
        var ladder: [Rendition] = []
        for item in items {
            let rendition = try validated(item, field: field)
            guard !ladder.contains(rendition) else { throw SpecError("\(field) names \(rendition.rawValue) twice") }
            ladder.append(rendition)
        }
        ladder.sort()
        guard ladder[0].quality != nil else {
            throw SpecError("\(field): the best rendition is the composite's size and must be 480p or more, not \(ladder[0].rawValue)")
        }
        return ladder
    }
}
