// The live harness builds on TestKit (seeded random, hex, temporary directories, tags): a test
// target that imports TestSupport has those too.
@_exported import TestKit
