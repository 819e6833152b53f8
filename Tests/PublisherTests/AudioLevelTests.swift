import Publisher
import Testing

/// RFC 6464's audio level, the one-byte header extension the SFU's active-speaker detection reads.
@Suite struct AudioLevelTests {
    @Test func audioLevelsAreMinusDBov() {
        #expect(AudioLevel.of([Float](repeating: 0, count: 960)) == 127)
        #expect(AudioLevel.of([Float](repeating: 1, count: 960)) == 0)
        #expect(AudioLevel.of([Float](repeating: 0.1, count: 960)) == 20)
        #expect(AudioLevel.of([]) == 127)
    }
}
