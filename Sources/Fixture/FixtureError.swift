/// A fixture that cannot be used (or written), and why. The description names the file and the
/// problem.
public struct FixtureError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Reason: Sendable, Equatable {
        case missingFile(String)
        case badPcap(String)
        case badManifest(String)
        case silentTrack(String)
        case cannotWrite(path: String, problem: String)
    }

    let reason: Reason

    init(_ reason: Reason) { self.reason = reason }

    public var description: String {
        switch reason {
        case .missingFile(let path): "fixture file not found: \(path)"
        case .badPcap(let problem): "capture.pcap: \(problem)"
        case .badManifest(let problem): "manifest.json: \(problem)"
        case .silentTrack(let problem): "capture.pcap: \(problem)"
        case .cannotWrite(let path, let problem): "cannot write \(path): \(problem)"
        }
    }
}
