import Foundation
import JobSpec

/// The events `revue record --events FILE` wrote, read as they are appended (a test or a bench
/// watching a run it started itself; a worker reads its runs through a pipe).
public final class JobRunEventsFile {
    public let path: String
    private var offset: UInt64 = 0
    private var decoder = JobRunEventDecoder()
    /// Only the events about this job (a run that carries several reports each under its id); nil: all.
    public let job: String?

    public init(path: String, job: String? = nil) {
        self.path = path
        self.job = job
    }

    /// The events written since the last call.
    public func readNew() -> [JobRunEvent] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.readToEnd(), !data.isEmpty else { return [] }
        offset += UInt64(data.count)
        return decoder.decodeReports(data).filter { job == nil || $0.job == job }.map(\.event)
    }
}

extension JobRunEvent {
    /// A `layout` event's tiles.
    public var tiles: [Tile]? {
        if case .layout(let tiles, _) = self { return tiles }
        return nil
    }

    /// A `progress` event's progress.
    public var progress: JobProgress? {
        if case .progress(let progress) = self { return progress }
        return nil
    }

    /// A `configured` event's spec.
    public var spec: PipelineSpec? {
        if case .configured(let spec) = self { return spec }
        return nil
    }
}
