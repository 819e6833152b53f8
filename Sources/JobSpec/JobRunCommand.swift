import Foundation

/// A line on a run's standard input from its worker (docs/JOBS.md, "Controls on a running job"):
/// a job's wanted state (`JobControl`, the line as it always was), or, for a run that carries
/// several jobs of one room (`PipelineSpec.hostsJobs`), a job that joins it or one that leaves.
///
///     {"version": 3, "paused": true, …, "job": "…"}     a control
///     {"attach": {…a pipeline spec…}}                    a job joins: its outputs from the next keyframe
///     {"detach": "…job id…"}                             a job leaves: its outputs finish, the rest go on
public enum JobRunCommand: Sendable, Equatable {
    case control(JobControl)
    case attach(PipelineSpec)
    case detach(job: String)

    /// The control the line carries, if it is one.
    public var control: JobControl? {
        if case .control(let control) = self { control } else { nil }
    }

    private enum CodingKeys: String, CodingKey {
        case attach, detach
    }

    /// Reads one line (without its newline).
    public init(line: some Collection<UInt8>) throws {
        let data = Data(line)
        let container = try JSONDecoder().decode(Probe.self, from: data)
        if container.attach {
            self = .attach(try JSONDecoder().decode(Attach.self, from: data).attach)
        } else if let job = container.detach {
            self = .detach(job: job)
        } else {
            self = .control(try JSONDecoder().decode(JobControl.self, from: data))
        }
    }

    /// The command as one line of the wire format, newline included.
    public var line: [UInt8] {
        let encoded: Data?
        switch self {
        case .control(let control): return control.line
        case .attach(let spec): encoded = try? JSONEncoder().encode(Attach(attach: spec))
        case .detach(let job): encoded = try? JSONEncoder().encode(["detach": job])
        }
        // Encoding these plain values cannot fail; an empty line is skipped by the reader.
        return (encoded.map(Array.init) ?? []) + [UInt8(ascii: "\n")]
    }

    private struct Attach: Codable {
        var attach: PipelineSpec
    }

    /// Which kind of line it is, without decoding the rest twice over.
    private struct Probe: Decodable {
        var attach: Bool
        var detach: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            attach = container.contains(.attach)
            detach = try container.decodeIfPresent(String.self, forKey: .detach)
        }
    }
}
