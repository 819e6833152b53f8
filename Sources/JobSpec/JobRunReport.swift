import Foundation

/// One line a run reports: an event and, in a run that carries several jobs
/// (`PipelineSpec.hostsJobs`), the job it is about (`"job"` beside the event's own keys; absent:
/// the run's own job).
public struct JobRunReport: Sendable, Equatable, Codable {
    public var job: String?
    public var event: JobRunEvent

    public init(job: String? = nil, event: JobRunEvent) {
        self.job = job
        self.event = event
    }

    private enum CodingKeys: String, CodingKey {
        case job
    }

    public init(from decoder: any Decoder) throws {
        event = try JobRunEvent(from: decoder)
        job = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .job)
    }

    public func encode(to encoder: any Encoder) throws {
        try event.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(job, forKey: .job)
    }

    /// The report as one line of the wire format, newline included.
    public var line: [UInt8] {
        // Encoding these plain values cannot fail; an empty line is skipped by the reader.
        ((try? JSONEncoder().encode(self)).map(Array.init) ?? []) + [UInt8(ascii: "\n")]
    }
}
