/// One stay of a participant in a session: from a join to the matching leave (nil while they
/// are still in). A participant who leaves and comes back has one entry per stay. Times are
/// seconds since 1970, as the registry's `now`.
public struct TimeLogEntry: Sendable, Hashable {
    public var start: Double
    public var end: Double?

    public init(start: Double, end: Double? = nil) {
        self.start = start
        self.end = end
    }
}
