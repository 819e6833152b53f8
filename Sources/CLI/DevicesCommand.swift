import Capture

/// `revue devices`: the microphones `revue publish --mic` and the SDK's `getMics()` can open on
/// this machine, so a person can pick one without reading ALSA's configuration.
enum DevicesCommand: RevueCommand {
    static let spec = CommandSpec(
        ["devices"],
        summary: "List the ALSA capture devices this machine's configuration offers as microphones.",
        discussion: """
            One line a device: its name for `revue publish --mic alsa:NAME` (and `alsa:NAME` as the SDK's deviceId), then its
            description. They are ALSA's (`arecord -L`, from the system's configuration and ~/.asoundrc), PulseAudio's and
            PipeWire's through their ALSA plugins included, less the outputs and the null device. A machine with no sound
            card lists none: `tone` and sound files still work. Cameras (V4L2) are not built yet.
            """,
        options: CommonOptions.logging)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let devices = ALSADevice.captureDevices()
        if devices.isEmpty {
            Console.print("no ALSA capture devices (--mic tone and --mic FILE still work)")
            return 0
        }
        let width = devices.map(\.id.count).max() ?? 0
        for device in devices {
            Console.print(device.id + String(repeating: " ", count: width - device.id.count + 2) + device.description)
        }
        return 0
    }
}
