import CALSA

/// Opening an ALSA PCM, for capture (`ALSACapturePCM`) or playback (the speaker, `Playout`):
/// libasound's error printer silenced once, and a device defined by the caller's own
/// configuration text (ALSA's syntax) instead of the system's and the user's files when given.
public enum ALSAPCMOpening {
    /// libasound's error printer replaced once, before the first call (it is process-wide).
    private static let silenced: Void = revue_alsa_silence()

    public static func silenceLibraryErrors() {
        _ = silenced
    }

    /// The open PCM; the caller closes it (`snd_pcm_close`). `purpose` names the direction in
    /// the error ("capture", "playback").
    public static func open(_ device: String, configuration: String?, stream: snd_pcm_stream_t, mode: Int32,
                            purpose: String) throws(ALSAError) -> OpaquePointer
    {
        silenceLibraryErrors()
        var opened: OpaquePointer?
        var status: Int32
        if let configuration {
            var tree: OpaquePointer?
            status = revue_alsa_config_from_text(configuration, &tree)
            guard status >= 0, let tree else { throw ALSAError(device: device, operation: "reading its configuration", code: status) }
            // The PCM keeps what it needs of the tree: it is freed once the device is open.
            defer { snd_config_delete(tree) }
            status = snd_pcm_open_lconf(&opened, device, stream, mode, tree)
        } else {
            status = snd_pcm_open(&opened, device, stream, mode)
        }
        guard status >= 0, let opened else { throw ALSAError(device: device, operation: "opening it for \(purpose)", code: status) }
        return opened
    }
}
