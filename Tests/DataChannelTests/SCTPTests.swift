import Testing

/// Every test that drives usrsctp is nested in here: usrsctp has one timer wheel per process,
/// so tests that advance it on their own clocks must not run at the same time.
@Suite(.serialized) struct SCTPTests {}
