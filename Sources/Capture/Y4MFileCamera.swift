import Foundation
import Glibc
import Media

/// A camera that plays a YUV4MPEG2 file (as `ffmpeg -pix_fmt yuv420p out.y4m` writes), looped:
/// frame `index` is the file's frame `index % count`. Frames are read from the file as asked
/// for, so a long 720p clip costs no memory. Only 4:2:0 (`C420*`, or no `C`) is accepted.
///
/// The format (https://wiki.multimedia.cx/index.php/YUV4MPEG2): a header line
/// `YUV4MPEG2 W640 H360 F30:1 …`, then per frame a line `FRAME[ params]` and the Y, U and V planes.
public final class Y4MFileCamera: CameraSource, Sendable {
    public let format: CameraFormat
    public let path: String
    /// Frames in the file.
    public let frameCount: Int
    private let descriptor: Int32
    private let firstFrame: Int
    private let frameHeader: Int
    private let frameBytes: Int

    public init(path: String) throws {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw MediaFileError("cannot open \(path): \(String(cString: strerror(errno)))") }
        self.descriptor = descriptor
        do {
            var head = [UInt8](repeating: 0, count: 512)
            let read = pread(descriptor, &head, head.count, 0)
            guard read > 0, let newline = head.prefix(read).firstIndex(of: 0x0A) else { throw Self.bad(path, "no header line") }
            let fields = String(decoding: head[..<newline], as: UTF8.self).split(separator: " ")
            guard fields.first == "YUV4MPEG2" else { throw Self.bad(path, "not YUV4MPEG2") }
            var width = 0, height = 0, rate = 30
            for field in fields.dropFirst() {
                let value = field.dropFirst()
                switch field.first {
                case "W": width = Int(value) ?? 0
                case "H": height = Int(value) ?? 0
                case "F":
                    let parts = value.split(separator: ":").compactMap { Int($0) }
                    if parts.count == 2, parts[1] > 0 { rate = max(1, Int((Double(parts[0]) / Double(parts[1])).rounded())) }
                case "C":
                    guard value.hasPrefix("420") else { throw Self.bad(path, "colour space C\(value); only 4:2:0 is read") }
                default: break
                }
            }
            guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else { throw Self.bad(path, "size \(width)x\(height)") }
            format = CameraFormat(width: width, height: height, framesPerSecond: rate)
            firstFrame = newline + 1
            // Frames are written `FRAME\n` by ffmpeg; the first one's header length is used for all.
            var marker = [UInt8](repeating: 0, count: 64)
            let got = pread(descriptor, &marker, marker.count, off_t(firstFrame))
            guard got > 5, marker.starts(with: Array("FRAME".utf8)), let end = marker.prefix(got).firstIndex(of: 0x0A) else {
                throw Self.bad(path, "no FRAME after the header")
            }
            frameHeader = end + 1
            frameBytes = width * height + 2 * ((width / 2) * (height / 2))
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw Self.bad(path, "cannot stat") }
            frameCount = (Int(status.st_size) - firstFrame) / (frameHeader + frameBytes)
            guard frameCount > 0 else { throw Self.bad(path, "no whole frame") }
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit {
        close(descriptor)
    }

    public func frame(_ index: Int) -> VideoFrame {
        let number = ((index % frameCount) + frameCount) % frameCount
        let offset = firstFrame + number * (frameHeader + frameBytes) + frameHeader
        var bytes = [UInt8](repeating: 0, count: frameBytes)
        let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, frameBytes, off_t(offset)) }
        let luma = format.width * format.height, chroma = luma / 4
        var picture: VideoFrame
        if got == frameBytes {
            picture = VideoFrame(width: format.width, height: format.height, y: Array(bytes[0..<luma]), u: Array(bytes[luma..<(luma + chroma)]),
                                 v: Array(bytes[(luma + chroma)...]), mediaTime: 0)
        } else {
            // The file changed under us: a black picture rather than a crash.
            picture = VideoFrame(width: format.width, height: format.height)
        }
        picture.mediaTime = Double(index) / Double(format.framesPerSecond)
        return picture
    }

    private static func bad(_ path: String, _ why: String) -> MediaFileError { MediaFileError("\(path): \(why)") }
}
