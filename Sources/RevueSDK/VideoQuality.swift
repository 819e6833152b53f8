/// A webcam quality (`setWebcamQuality(_:)`): one of the simulcast layers.
public enum VideoQuality: String, Sendable, Hashable, CaseIterable {
    case high, medium, low
}
