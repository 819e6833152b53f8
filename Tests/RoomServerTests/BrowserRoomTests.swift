import TestKit
import Testing

/// The room server's tests that start browsers or aiortc: one suite at a time, and none beside
/// another target's room suites (RoomClientLiveTests, LivePipelineTests): on two cores, two rooms
/// of headless Chromium at once would make each other late.
@Suite(.serialized, .oneRoomAtATime) enum BrowserRoomTests {}
