/// Somewhere else an HLS output's files also go as they are written (object storage, so a CDN
/// serves the live stream: Sources/Storage `HLSBucketMirror`). The output calls `written` in the
/// order files become whole on disk: the initialization segment, each media segment, then the
/// playlists that name it, so a mirror that keeps that order never publishes a playlist naming a
/// segment it does not have.
public protocol HLSFileMirror: AnyObject, Sendable {
    /// A file that is now whole in the output's directory, with its bytes.
    func written(name: String, bytes: [UInt8], isPlaylist: Bool)
    /// A playlist that names playlists written before it (a ladder's multivariant playlist): a
    /// mirror that skips a playlist for a newer copy of it must not skip one queued before this
    /// for a copy queued after it.
    func writtenNamingEarlierPlaylists(name: String, bytes: [UInt8])
    /// Runs `action` once every file written so far is where the mirror puts it (not if the
    /// mirror fails first): the output is playable from there then.
    func afterStored(_ action: @escaping @Sendable () -> Void)
    /// The first failure so far, if any; the output reports it as its own.
    var failure: String? { get }
    /// Waits until everything written so far is mirrored; throws the first failure.
    func finish() throws
}

extension HLSFileMirror {
    /// A mirror that keeps every file in order needs nothing more.
    public func writtenNamingEarlierPlaylists(name: String, bytes: [UInt8]) {
        written(name: name, bytes: bytes, isPlaylist: true)
    }

    /// A mirror that stores each file before `written` returns: everything is there already. (A
    /// mirror that stores later must implement `afterStored`, or its stream is reported
    /// playable before it is.)
    public func afterStored(_ action: @escaping @Sendable () -> Void) {
        action()
    }
}
