import CALSA
import Foundation

/// Why an ALSA device (a microphone, or the speaker) cannot be used: what was being done, on which device, and
/// libasound's own words for the error (`snd_strerror`).
public struct ALSAError: Error, Sendable, Equatable, CustomStringConvertible {
    public let device: String
    public let operation: String
    /// The negative errno libasound returned.
    public let code: Int32

    public init(device: String, operation: String, code: Int32) {
        self.device = device
        self.operation = operation
        self.code = code
    }

    public var description: String {
        let reason = snd_strerror(code).map { String(cString: $0) } ?? "error \(code)"
        return "ALSA device \(device): \(operation) failed: \(reason)"
    }
}
