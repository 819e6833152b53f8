import TestKit
import Testing

/// Revue's own clients (RoomSession, RoomReceiver, Publisher, `revue publish`) in live rooms with
/// Chromium and aiortc: one suite at a time, and none beside another target's room suites.
@Suite(.serialized, .oneRoomAtATime) enum RoomClientLiveSuites {}
