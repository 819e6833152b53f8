import Foundation
import LibAV

/// What libavformat says about a finished file: duration, picture size and codecs.
public struct MediaInfo: Sendable, Equatable {
    public var duration: Double?
    public var width: Int?
    public var height: Int?
    public var size: Int64
    /// Codec names of the streams, in order (`h264`, `aac`).
    public var codecs: [String] = []

    public static func probe(_ path: String) -> MediaInfo? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = (attributes[.size] as? NSNumber)?.int64Value,
              let input = try? InputFormatContext(url: path)
        else { return nil }
        var info = MediaInfo(size: size)
        info.duration = input.duration
        for stream in input.streamInfos {
            info.codecs.append(stream.codecName)
            if stream.isVideo {
                info.width = stream.width
                info.height = stream.height
            }
        }
        return info
    }
}
