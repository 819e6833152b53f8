import Foundation

/// An ALSA capture device for tests on a machine with no sound card: ALSA's `file` plugin over
/// its `null` device, whose capture is a raw file of ours (mono 16-bit 48 kHz little-endian).
/// libasound opens and reads it through the same calls a card takes.
public enum ALSAFileDevice {
    /// Writes `seconds` of a tone at `frequency` for the device to capture.
    public static func writeTone(_ path: String, frequency: Double, seconds: Double, amplitude: Double = 0.4) throws {
        let count = Int(seconds * 48_000)
        var bytes = [UInt8]()
        bytes.reserveCapacity(count * 2)
        for index in 0..<count {
            let value = Int16(amplitude * 32_767 * sin(2 * Double.pi * frequency * Double(index) / 48_000))
            bytes.append(UInt8(truncatingIfNeeded: value))
            bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// The device `name` capturing `file`, in ALSA's configuration syntax (for `~/.asoundrc`,
    /// or `ALSAMicrophone`'s `configuration`); with a `hint`, `arecord -L` and `revue devices`
    /// list it under that description.
    public static func configuration(_ name: String, capturing file: String, hint: String? = nil) -> String {
        """
        pcm.\(name) {
            type file
            slave { pcm { type null } }
            file "/dev/null"
            infile "\(file)"
            format "raw"
        \(hint.map { "    hint { show on description \"\($0)\" }" } ?? "")
        }

        """
    }

    /// The playback device `name` that writes what it is given to `file` (the same raw format).
    public static func playbackConfiguration(_ name: String, writing file: String) -> String {
        """
        pcm.\(name) {
            type file
            slave { pcm { type null } }
            file "\(file)"
            format "raw"
        }

        """
    }
}
