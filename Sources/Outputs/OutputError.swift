/// Why an output failed, and whose fault it is: the destination (a full disk, an RTMP server
/// that went away) or bad input from the user (a URL that cannot work).
public struct OutputError: Error, Sendable, CustomStringConvertible {
    public enum Fault: String, Sendable {
        case destination
        case input
        case `internal`
    }

    public let fault: Fault
    public let output: String
    public let message: String

    public init(fault: Fault, output: String, message: String) {
        self.fault = fault
        self.output = output
        self.message = message
    }

    public var description: String { "\(output): \(message)" }
}
