/// Which of a publisher's simulcast layers a receiver asks for (the room's `setQuality`): the
/// SFU forwards that layer of the camera, switching at its next keyframe. A publisher with
/// fewer layers gives its nearest; one with none gives what it sends.
public enum SimulcastLevel: Int, Sendable, Comparable, CaseIterable {
    case low
    case medium
    case high

    public static func < (lhs: SimulcastLevel, rhs: SimulcastLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
