import TestKit
import Testing

/// Recordings, HLS and transcripts of live rooms, through the worker and the pipeline: one suite
/// at a time, and none beside another target's room suites.
@Suite(.serialized, .oneRoomAtATime) enum LivePipelineSuites {}
