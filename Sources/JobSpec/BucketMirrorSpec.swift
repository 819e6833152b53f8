/// HLS that goes to object storage while it is live: every file the HLS output writes is
/// also put at `bucket/prefix/<file name>`, segments before the playlists that name them.
public struct BucketMirrorSpec: Sendable, Codable, Equatable {
    public var storage: ObjectStorageConfig
    /// The key prefix of the HLS part: `awsDirPath/part-N`.
    public var prefix: String

    public init(storage: ObjectStorageConfig, prefix: String) {
        self.storage = storage
        self.prefix = prefix
    }
}
