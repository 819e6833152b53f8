/// What to give up first when bandwidth runs short. Not supported yet, as the seed says:
/// `VideoPublishOptions.degradationPreference` has no effect, and the SDK lowers neither the
/// resolution nor the frame rate of a publication.
public enum DegradationPreference: String, Sendable, Hashable, CaseIterable {
    case balanced
    case maintainResolution
    case maintainFramerate
    case disabled
}
