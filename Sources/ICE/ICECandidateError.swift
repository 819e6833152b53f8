/// A `candidate:` attribute that does not follow RFC 8839 §5.1. The description names the field.
public struct ICECandidateError: Error, Sendable, Equatable, CustomStringConvertible {
    let problem: String

    init(_ problem: String) { self.problem = problem }

    public var description: String { "bad ICE candidate: \(problem)" }
}
