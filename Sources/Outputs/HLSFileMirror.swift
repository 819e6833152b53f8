/// Somewhere else an HLS output's files also go as they are written (object storage, so a CDN
/// serves the live stream: Sources/Storage `HLSBucketMirror`). The output calls `written` in the
/// order files become whole on disk: the initialization segment, each media segment, then the
/// playlists that name it, so a mirror that keeps that order never publishes a playlist naming a
/// segment it does not have.
public protocol HLSFileMirror: AnyObject, Sendable {
    /// A file that is now whole in the output's directory, with its bytes.
    func written(name: String, bytes: [UInt8], isPlaylist: Bool)
    /// The first failure so far, if any; the output reports it as its own.
    var failure: String? { get }
    /// Waits until everything written so far is mirrored; throws the first failure.
    func finish() throws
}
