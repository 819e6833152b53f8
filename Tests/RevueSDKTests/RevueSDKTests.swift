import Testing

/// The seed-walk suite of the SDK (docs/SDK.md). Serialized: the SDK's devices, permissions and
/// log level are process-wide, as on iOS, so a test that denies camera access must not run
/// beside one that opens a camera.
@Suite(.serialized) struct RevueSDKTests {}
