import CFFmpeg
import Foundation
import LibAV
import Log
import Media

/// A camera that plays a media file's first video stream, looped: a file Revue's FFmpeg reads
/// (MP4, WebM, MKV, y4m, …: README.md lists the formats) in a codec it decodes, scaled to the
/// track's size. The SDK's file cameras (`VideoSDK.addFileCamera`) are these.
///
/// Pictures are decoded as the publisher asks for them, in order, not all at once: a minute of
/// 720p is 2.5 GB decoded. Frame `index` is the file's picture showing at `index / fps`
/// seconds (a 25 fps file sent at 30 fps repeats one picture in six); at the end the file seeks
/// back to its start and plays again, its times carrying on.
// @unchecked Sendable: mutable state (the libav demuxer, decoder, scaler and pictures) guarded by `lock`
public final class MediaFileCamera: CameraSource, @unchecked Sendable {
    /// Why a file cannot be a camera.
    public struct OpenError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public let path: String
    public let format: CameraFormat
    private let lock = NSLock()
    private let input: InputFormatContext
    private let decoder: CodecContext
    private let streamIndex: Int32
    private let timeBase: Double
    private var scaler: ScaleContext?
    private let packet = Packet()
    private let decoded = Frame()
    /// The picture showing now, and the next one with the time it starts.
    private var current: VideoFrame
    private var next: (picture: VideoFrame, time: Double)?
    /// The file's first picture time, and what each pass adds (the length of one pass).
    private var firstTime: Double?
    private var lastTime = 0.0
    private var passOffset = 0.0
    private let frameDuration: Double
    private var draining = false
    private var failed = false
    private let logger = Logger(label: "file-camera")

    /// - Parameter format: the size and rate to send; nil is the file's size at 30 fps.
    public init(path: String, format: CameraFormat? = nil) throws(OpenError) {
        self.path = path
        let opened: InputFormatContext
        do {
            opened = try InputFormatContext(url: path)
        } catch {
            throw OpenError(description: "cannot read \(path): \(error)")
        }
        input = opened
        guard let index = (0..<opened.streamCount).first(where: { opened.stream($0)?.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO }),
              let stream = opened.stream(index), let parameters = stream.pointee.codecpar
        else {
            throw OpenError(description: "\(path) has no video stream")
        }
        streamIndex = Int32(index)
        timeBase = av_q2d(stream.pointee.time_base)
        do {
            decoder = try CodecContext(decoder: parameters.pointee.codec_id)
            guard avcodec_parameters_to_context(decoder.pointer, parameters) >= 0 else {
                throw OpenError(description: "\(path): the decoder does not take the stream's parameters")
            }
            try decoder.open()
        } catch let error as OpenError {
            throw error
        } catch {
            throw OpenError(description: "\(path): no decoder for its video (\(avcodec_get_name(parameters.pointee.codec_id).map { String(cString: $0) } ?? "?")): \(error)")
        }
        let width = Int(parameters.pointee.width), height = Int(parameters.pointee.height)
        guard width > 0, height > 0 else { throw OpenError(description: "\(path): the video has no size") }
        // Even sizes for 4:2:0, and at least 2x2 (a 1-pixel-wide picture would round to nothing).
        let chosen = format ?? CameraFormat(width: max(2, width & ~1), height: max(2, height & ~1), framesPerSecond: 30)
        self.format = chosen
        let rate = av_q2d(stream.pointee.avg_frame_rate)
        frameDuration = rate > 0 ? 1 / rate : 1 / Double(chosen.framesPerSecond)
        current = VideoFrame(width: chosen.width, height: chosen.height)
        // The first picture, so a file that decodes nothing fails here, not on the air.
        guard let first = decodeNext() else { throw OpenError(description: "\(path): no picture decodes") }
        current = first.picture
    }

    public func frame(_ index: Int) -> VideoFrame {
        lock.lock()
        defer { lock.unlock() }
        let time = Double(index) / Double(format.framesPerSecond)
        while !failed {
            if next == nil { next = decodeNext() }
            guard let upcoming = next, upcoming.time <= time else { break }
            current = upcoming.picture
            next = nil
        }
        var picture = current
        picture.mediaTime = time
        return picture
    }

    /// The next picture in the file, looping at its end; nil when nothing decodes at all.
    private func decodeNext() -> (picture: VideoFrame, time: Double)? {
        var restarts = 0
        while restarts < 2 {
            do {
                if try decoder.receive(decoded) {
                    let stamp = decoded.pointer.pointee.best_effort_timestamp
                    let fileTime = stamp == Int64.min ? lastTime + frameDuration : Double(stamp) * timeBase
                    let start = firstTime ?? fileTime
                    firstTime = start
                    lastTime = max(lastTime, fileTime - start)
                    let picture = try convert()
                    restarts = 0
                    return (picture, fileTime - start + passOffset)
                }
                if draining {
                    // The whole file is played: the next pass starts one picture after its last.
                    passOffset += lastTime + frameDuration
                    lastTime = 0
                    draining = false
                    restarts += 1
                    av_seek_frame(input.pointer, streamIndex, 0, 1)  // 1: AVSEEK_FLAG_BACKWARD, the keyframe at or before 0
                    decoder.flush()
                    continue
                }
                if try input.read(into: packet) {
                    defer { av_packet_unref(packet.pointer) }
                    if packet.streamIndex == streamIndex { try decoder.send(packet) }
                } else {
                    try decoder.send(Optional<Packet>.none)
                    draining = true
                }
            } catch {
                logger.error("the file camera stopped: a picture did not decode", ["path": .string(path), "error": .string("\(error)")])
                failed = true
                return nil
            }
        }
        failed = true
        return nil
    }

    /// The decoded picture at the track's size, in I420.
    private func convert() throws(AVError) -> VideoFrame {
        let pixelFormat = AVPixelFormat(rawValue: decoded.format)
        if scaler?.matches(sourceWidth: decoded.width, sourceHeight: decoded.height, sourceFormat: pixelFormat) != true {
            scaler = try ScaleContext(sourceWidth: decoded.width, sourceHeight: decoded.height, sourceFormat: pixelFormat,
                                      destinationWidth: format.width, destinationHeight: format.height)
        }
        guard let scaler else { throw AVError(code: revue_averror(EINVAL), function: "sws_getContext") }
        return try scaler.convert(decoded, mediaTime: 0)
    }
}
