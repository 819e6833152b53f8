/// The simulcast layer a subscriber would like (`setQuality`). With three layers these are
/// the lowest, middle and highest; with two, `.med` and `.high` both take the higher one.
public enum PreferredQuality: String, Sendable, Equatable, CaseIterable {
    case low
    case med
    case high

    /// The layer index for a producer with `count` layers (ordered low to high).
    func layer(of count: Int) -> Int {
        switch self {
        case .low: 0
        case .med: max(0, min(count - 1, count / 2))
        case .high: max(0, count - 1)
        }
    }
}
