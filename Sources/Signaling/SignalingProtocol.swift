/// The signalling protocol's constants (docs/SIGNALING.md).
///
/// Every message, in both directions, is one WebSocket text frame (RFC 6455 §5.6) holding one
/// JSON object (RFC 8259) with `"v": 1` and a `"type"`.
public enum SignalingProtocol {
    /// The version this code speaks. A message with another `v` is answered with an error
    /// (3068) and changes nothing; fields added to a message within a version are optional, so
    /// both sides ignore fields they do not know.
    public static let version = 1

    /// The largest text frame the decoder reads: an SDP offer with simulcast and many tracks is
    /// 10–30 KB, so 256 KiB leaves room without letting one client make the server parse
    /// megabytes.
    public static let maximumMessageBytes = 262_144

    /// The longest participant id, room id or request id, as the REST API allows for room ids.
    public static let maximumIdentifierLength = 128

    /// The longest display name, in characters.
    public static let maximumNameLength = 256

    /// The most bytes of `metaData`, as compact JSON.
    public static let maximumMetaDataBytes = 4096
}
