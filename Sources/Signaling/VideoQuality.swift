/// The simulcast layer a subscriber asks for from one publisher (`setQuality`).
public enum VideoQuality: String, SignalingEnum {
    case low
    case med
    case high

    /// Also reads the SDK's `medium`.
    public init?(reading text: String) {
        if text.lowercased() == "medium" {
            self = .med
        } else {
            self.init(lenient: text)
        }
    }
}
