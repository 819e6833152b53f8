import CFFmpeg
import Foundation
import LibAV

/// What libavformat says about a finished file: duration and picture size.
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
        if let context = input.pointer, context.pointee.duration > 0 {
            info.duration = Double(context.pointee.duration) / Double(revue_time_base())
        }
        for index in 0..<input.streamCount {
            guard let stream = input.stream(index) else { continue }
            if let name = avcodec_get_name(stream.pointee.codecpar.pointee.codec_id) { info.codecs.append(String(cString: name)) }
            guard stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO else { continue }
            info.width = Int(stream.pointee.codecpar.pointee.width)
            info.height = Int(stream.pointee.codecpar.pointee.height)
        }
        return info
    }
}
