import CFFmpeg

/// An error code from FFmpeg's libraries, with the function that returned it and FFmpeg's own
/// text for it (av_strerror).
public struct AVError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: Int32
    public let function: String

    public init(code: Int32, function: String) {
        self.code = code
        self.function = function
    }

    public var message: String {
        var buffer = [CChar](repeating: 0, count: 256)
        return buffer.withUnsafeMutableBufferPointer { pointer in
            guard let base = pointer.baseAddress else { return "error \(code)" }
            return String(cString: revue_av_strerror(code, base, pointer.count))
        }
    }

    public var description: String { "\(function): \(message) (\(code))" }

    /// AVERROR(EAGAIN): the codec wants input before it can give output, or the reverse.
    public var isAgain: Bool { code == revue_averror_eagain() }
    /// AVERROR_EOF: the codec or stream is drained.
    public var isEndOfFile: Bool { code == revue_averror_eof() }

    public static let again = AVError(code: revue_averror_eagain(), function: "")
    public static let endOfFile = AVError(code: revue_averror_eof(), function: "")
}

/// Turns a negative libav return value into a thrown `AVError`, so call sites stay one line.
@discardableResult
public func check(_ result: Int32, _ function: String) throws(AVError) -> Int32 {
    guard result >= 0 else { throw AVError(code: result, function: function) }
    return result
}
