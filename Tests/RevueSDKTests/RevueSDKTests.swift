import Testing

/// The seed-walk suite of the SDK (docs/SDK.md). Serialized: the SDK's devices, permissions and
/// log level are process-wide, as on iOS, so a test that denies camera access must not run
/// beside one that opens a camera. The suites with browsers, several nodes, the speech engine or
/// a lossy proxy also take turns with the other targets' live rooms (`.oneRoomAtATime` on each): beside the
/// three-node death test, the live HLS captions' speech engine heard only "The the the the"
/// (CI on 6887c3b).
@Suite(.serialized) struct RevueSDKTests {}
