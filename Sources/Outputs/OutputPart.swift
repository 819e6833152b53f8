import Foundation
import HLS
import JobSpec

/// What the job layer asks about a part on disk, by its kind: where its media is, what it
/// holds, and how to finish one a killed attempt left. Only this module knows what an MP4 or an
/// HLS directory looks like.
public enum OutputPart {
    /// What finishing an abandoned part did.
    public enum Outcome: Sendable, Equatable {
        /// It is whole now (an HLS playlist ended), or was already (an MP4 finished by a
        /// writer whose worker died before it listed the part).
        case complete
        /// A killed MP4 was made a faststart MP4 from its whole fragments (`kept`: fragments), or
        /// a killed per-participant recording's files were finished (`kept`: files).
        case repaired(kept: Int)
        /// It holds nothing: the attempt ended before it wrote media. It is removed.
        case nothingRecorded
        /// It could not be repaired; it is left as it is.
        case lost(String)
    }

    /// The renditions of an HLS ladder (`config.renditions`) in the part's directory, best
    /// first: the sub-directories named for a rendition that hold an `init.mp4`; none for one
    /// stream.
    public static func ladderRungs(at path: String) -> [String] {
        Rendition.allCases.map(\.rawValue).filter { FileManager.default.fileExists(atPath: path + "/" + $0 + "/" + HLSPlaylist.mapURI) }
    }

    /// The file a player opens: the MP4 itself, the HLS directory's `index.m3u8` (a ladder's
    /// best rendition's), or a transcript's `transcript.vtt`.
    public static func mediaFile(_ kind: PartKind, at path: String) -> String {
        switch kind {
        case .mp4: path
        case .hls: path + "/" + (ladderRungs(at: path).first.map { $0 + "/" } ?? "") + HLSOutput.indexName
        case .transcript: path + "/transcript.vtt"
        case .tracks: path + "/" + TrackManifest.fileName
        }
    }

    /// Finishes a part whose writer was killed: an MP4 is repaired in place, an HLS playlist gets
    /// its end tag.
    public static func finishAbandoned(_ kind: PartKind, at path: String) -> Outcome {
        if kind == .tracks { return finishAbandonedTracks(at: path) }
        guard FileManager.default.fileExists(atPath: mediaFile(kind, at: path)) else {
            try? FileManager.default.removeItem(atPath: path)
            return .nothingRecorded
        }
        switch kind {
        case .mp4:
            do {
                let report = try MP4Repair.repair(path, to: path)
                return .repaired(kept: report.fragmentsKept)
            } catch is MP4Repair.AlreadyWhole {
                return .complete
            } catch is MP4Repair.NothingRecorded {
                try? FileManager.default.removeItem(atPath: path)
                return .nothingRecorded
            } catch {
                return .lost("\(error)")
            }
        case .hls:
            // A ladder: each rendition's directory is finished as one stream's would be.
            let rungs = ladderRungs(at: path)
            for directory in rungs.isEmpty ? [path] : rungs.map({ path + "/" + $0 }) {
                HLSPlaylist.appendEndList(toFileAt: directory + "/" + HLSOutput.indexName)
                HLSPlaylist.endAbandonedLive(atPath: directory + "/" + HLSOutput.liveName)
                // Parts are for players at the live edge of a stream that has none any more.
                for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where HLSPart.isPartFile(name) {
                    unlink(directory + "/" + name)
                }
            }
            return .complete
        case .transcript:
            // Written whole or not listed: a transcript part is only listed once its files are.
            return .complete
        case .tracks:
            return finishAbandonedTracks(at: path)
        }
    }

    /// Finishes each file a killed per-participant recording left growing: rewritten up to its
    /// last whole cluster with its length and index, and its manifest entry made to match.
    static func finishAbandonedTracks(at path: String) -> Outcome {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let media = names.filter { $0.hasSuffix(".webm") || $0.hasSuffix(".mkv") }
        guard let manifest = TrackManifest.read(directory: path) else {
            // Removed only when it holds no media: a manifest this version cannot read (a
            // newer writer's) must not cost the files it lists.
            if media.isEmpty {
                try? FileManager.default.removeItem(atPath: path)
                return .nothingRecorded
            }
            return .lost("its \(TrackManifest.fileName) is missing or unreadable; \(media.count) track files are left as they are")
        }
        guard !manifest.tracks.isEmpty else {
            if media.isEmpty { try? FileManager.default.removeItem(atPath: path) }
            return media.isEmpty ? .nothingRecorded : .lost("\(media.count) track files that its manifest does not list")
        }
        return finishTracks(manifest, at: path)
    }

    static func finishTracks(_ manifest: TrackManifest, at path: String) -> Outcome {
        var manifest = manifest
        var finished = 0
        var unreadable: [String] = []
        for index in manifest.tracks.indices where !manifest.tracks[index].complete {
            // The recorder names files with letters, digits, `_`, `-` and one `.`: nothing else
            // in a manifest is opened.
            let name = manifest.tracks[index].file
            guard !name.contains("/"), !name.hasPrefix("."), name.unicodeScalars.allSatisfy(\.isASCII) else {
                unreadable.append(name)
                continue
            }
            let file = path + "/" + name
            let format = file.hasSuffix(".mkv") ? "matroska" : "webm"
            do {
                try Remuxer.finishedMatroska(from: file, to: file + ".finishing", format: format)
                guard rename(file + ".finishing", file) == 0 else { throw OutputError(fault: .destination, output: file, message: "rename failed") }
                if let info = MediaInfo.probe(file), let duration = info.duration {
                    manifest.tracks[index].end = manifest.tracks[index].start + duration
                    manifest.tracks[index].bytes = info.size
                }
                manifest.tracks[index].complete = true
                finished += 1
            } catch {
                unlink(file + ".finishing")
                unreadable.append(manifest.tracks[index].file)
            }
        }
        // Every file finished: the part is whole now, as a recording that ended would be.
        if unreadable.isEmpty { manifest.complete = true }
        if let bytes = try? manifest.encoded() {
            let temporary = path + "/" + TrackManifest.fileName + ".tmp"
            if FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) { rename(temporary, path + "/" + TrackManifest.fileName) }
        }
        // A file that cannot be read stays listed, `complete: false`; the part is lost only when
        // none of what needed finishing could be.
        if finished == 0 && !unreadable.isEmpty { return .lost("files that could not be read: \(unreadable.joined(separator: ", "))") }
        return finished > 0 ? .repaired(kept: finished) : .complete
    }

    /// What a finished part holds: its size on disk (all of an HLS directory), duration and
    /// picture size, or nil if there is nothing to probe.
    public static func describe(_ kind: PartKind, at path: String) -> MediaInfo? {
        guard kind != .transcript else { return nil }
        if kind == .tracks {
            guard let manifest = TrackManifest.read(directory: path) else { return nil }
            var info = MediaInfo(size: directorySize(path))
            info.duration = manifest.duration
            info.codecs = Array(Set(manifest.tracks.map { $0.codec.lowercased() })).sorted()
            return info
        }
        guard var info = MediaInfo.probe(mediaFile(kind, at: path)) else { return nil }
        if kind == .hls { info.size = directorySize(path) }
        return info
    }

    /// The bytes of the files in `path` and, for an HLS ladder, in its renditions' directories.
    static func directorySize(_ path: String) -> Int64 {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let files = names.reduce(Int64(0)) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + name)
            guard attributes?[.type] as? FileAttributeType != .typeDirectory else { return total }
            return total + ((attributes?[.size] as? NSNumber)?.int64Value ?? 0)
        }
        return ladderRungs(at: path).reduce(files) { $0 + directorySize(path + "/" + $1) }
    }
}
