import Foundation

/// Bytes read from a job's event pipe in, events out: lines are cut as they complete, whatever
/// the reads' boundaries. A line longer than `maximumLineLength` is dropped whole (a pipeline
/// cannot make its worker hold an endless line), and a line that is not an event is counted
/// and its error kept, never fatal.
public struct JobRunEventDecoder: Sendable {
    /// The longest line kept: a `configured` event with its spec is a few KiB.
    public static let maximumLineLength = 1 << 20

    private var lines = BoundedLineSplitter(maximumLength: maximumLineLength)
    /// Lines that were too long or not an event.
    public private(set) var unreadable = 0
    /// Why the last unreadable line was.
    public private(set) var lastProblem: String?

    public init() {}

    /// The events the bytes complete.
    public mutating func decode(_ bytes: some Collection<UInt8>) -> [JobRunEvent] {
        decodeReports(bytes).map(\.event)
    }

    /// The reports the bytes complete, each with the job it is about.
    public mutating func decodeReports(_ bytes: some Collection<UInt8>) -> [JobRunReport] {
        var events: [JobRunReport] = []
        for piece in lines.add(bytes) {
            switch piece {
            case .tooLong:
                unreadable += 1
                lastProblem = "a line longer than \(Self.maximumLineLength) bytes"
            case .line(let line):
                do {
                    events.append(try JSONDecoder().decode(JobRunReport.self, from: Data(line)))
                } catch {
                    unreadable += 1
                    lastProblem = "\(error)"
                }
            }
        }
        return events
    }
}
