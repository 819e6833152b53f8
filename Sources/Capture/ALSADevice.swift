import CALSA
import Foundation

/// An ALSA capture device, as the system's and the user's configuration list it
/// (`snd_device_name_hint`, what `arecord -L` prints).
public struct ALSADevice: Sendable, Equatable {
    /// The name to open: `default`, `sysdefault:CARD=…`, `pulse`, or one defined in `~/.asoundrc`.
    public var name: String
    /// The first line of its description.
    public var description: String

    /// How a device is named outside ALSA: `alsa:NAME`, the SDK's `deviceId` and
    /// `revue publish --mic`'s value.
    public static let idPrefix = "alsa:"

    /// `alsa:NAME`.
    public var id: String { Self.idPrefix + name }

    /// The device an `alsa:NAME` id names; nil for anything else.
    public static func name(fromID id: String) -> String? {
        id.hasPrefix(idPrefix) ? String(id.dropFirst(idPrefix.count)) : nil
    }

    public init(name: String, description: String) {
        self.name = name
        self.description = description
    }

    /// Names that are not microphones: the sink that captures zeros, and the outputs and
    /// raw mixers a card lists beside its capture devices.
    static let skippedPrefixes = ["null", "front:", "rear:", "center_lfe:", "side:", "surround", "iec958:", "spdif", "hdmi:", "dmix",
                                  "dsnoop", "hw:", "usbstream:"]

    /// The capture devices the configuration lists, in its order: each that is not output-only
    /// and not one of `skippedPrefixes`. Nothing is opened.
    public static func captureDevices() -> [ALSADevice] {
        ALSAPCMOpening.silenceLibraryErrors()
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard snd_device_name_hint(-1, "pcm", &hints) >= 0, let hints else { return [] }
        defer { snd_device_name_free_hint(hints) }
        var devices: [ALSADevice] = []
        var cursor = hints
        while let hint = cursor.pointee {
            cursor += 1
            guard let name = Self.hint(hint, "NAME") else { continue }
            let direction = Self.hint(hint, "IOID")
            guard direction == nil || direction == "Input", !skippedPrefixes.contains(where: { name.hasPrefix($0) }) else { continue }
            let description = Self.hint(hint, "DESC")?.split(separator: "\n").first.map(String.init) ?? name
            devices.append(ALSADevice(name: name, description: description))
        }
        return devices
    }

    private static func hint(_ hint: UnsafeMutableRawPointer, _ id: String) -> String? {
        guard let value = snd_device_name_get_hint(hint, id) else { return nil }
        defer { free(value) }
        return String(cString: value)
    }
}
