import RTP
import Testing

@Suite struct SequenceUnwrapperTests {
    @Test(arguments: [
        ([UInt16](arrayLiteral: 1, 2, 3), [Int64](arrayLiteral: 1, 2, 3)),
        ([65534, 65535, 0, 1], [65534, 65535, 65536, 65537]),
        ([65535, 1, 0, 2], [65535, 65537, 65536, 65538]), // reordered across the wrap
        ([10, 9, 11], [10, 9, 11]), // a late packet
        ([0, 65535], [0, -1]), // backwards across the wrap at the start
        ([100, 32867], [100, 32867]), // the largest forward step
    ])
    func sequenceNumbersUnwrap(input: [UInt16], expected: [Int64]) {
        var unwrapper = SequenceUnwrapper()
        #expect(input.map { unwrapper.unwrap($0) } == expected)
    }

    @Test func manyWrapsKeepCounting() {
        var unwrapper = SequenceUnwrapper()
        var value: UInt16 = 60000
        var last: Int64 = 0
        for _ in 0..<300_000 {
            last = unwrapper.unwrap(value)
            value &+= 1
        }
        #expect(last == 60000 + 299_999)
    }

    @Test(arguments: [
        ([UInt32](arrayLiteral: 4_294_966_296, 4_294_967_256, 920), [Int64](arrayLiteral: 4_294_966_296, 4_294_967_256, 4_294_968_216)),
        ([3000, 0, 6000], [3000, 0, 6000]),
        ([0xFFFF_FFFF, 0x7FFF_FFFE], [0xFFFF_FFFF, 0x1_7FFF_FFFE]), // the largest forward step
        ([0xFFFF_FFFF, 0x7FFF_FFFF], [0xFFFF_FFFF, 0x7FFF_FFFF]), // half the range: taken as backwards
    ])
    func timestampsUnwrap(input: [UInt32], expected: [Int64]) {
        var unwrapper = TimestampUnwrapper()
        #expect(input.map { unwrapper.unwrap($0) } == expected)
    }

    @Test func ntpTimestampsConvert() {
        let ntp = NTPTimestamp(ntpSeconds: 3_000_000_000.25)
        #expect(ntp.seconds == 3_000_000_000)
        #expect(ntp.fraction == 0x4000_0000)
        #expect(abs(ntp.ntpSeconds - 3_000_000_000.25) < 1e-9)
        #expect(NTPTimestamp(seconds: 0x1234_5678, fraction: 0x9ABC_DEF0).middle32 == 0x5678_9ABC)
    }
}
