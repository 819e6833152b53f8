import Testing

/// Every test that starts browsers or aiortc, one at a time: on two cores, two rooms of headless
/// Chromium at once would make each other late.
@Suite(.serialized) enum BrowserRoomTests {}
