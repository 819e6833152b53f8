import Testing

@testable import Segmentation

/// Masks steadied over time: the model's wavering shrinks, a movement is followed at once.
@Suite struct MaskSmootherTests {
    static func mask(_ value: UInt8, width: Int = 16, height: Int = 9) -> PersonMask {
        PersonMask(width: width, height: height, filledWith: value)
    }

    /// An edge pixel the model puts at 110, then 170, then 110… (either side of the blend's
    /// middle): smoothed, its swing is a fraction of the model's after a few pictures.
    @Test func aWaveringValueSettles() {
        var smoother = MaskSmoother()
        var out: [Int] = []
        for index in 0..<12 { out.append(Int(smoother.smooth(Self.mask(index % 2 == 0 ? 110 : 170)).values[0])) }
        let swing = zip(out.suffix(6), out.suffix(5)).map { abs($0 - $1) }.max() ?? 255
        #expect(out[0] == 110, "the first mask as it is")
        #expect(swing <= 25, "the swing of 60 became \(swing): \(out)")
        #expect(out.suffix(6).allSatisfy { (120...160).contains($0) }, "\(out)")
    }

    /// The person steps in (0 → 255) and out again: taken at once, with no trail.
    @Test func aMovementIsFollowedAtOnce() {
        var smoother = MaskSmoother()
        _ = smoother.smooth(Self.mask(0))
        #expect(smoother.smooth(Self.mask(255)).values.allSatisfy { $0 == 255 })
        #expect(smoother.smooth(Self.mask(10)).values.allSatisfy { $0 == 10 })
    }

    /// Only pixels that waver are averaged: a mask half person, half background, with the model
    /// wobbling by a few steps everywhere, keeps its two halves.
    @Test func eachPixelOnItsOwn() throws {
        var smoother = MaskSmoother()
        let halves = { (wobble: Int) in
            try #require(PersonMask(width: 4, height: 1, values: [UInt8(250 - wobble), UInt8(250 - wobble), UInt8(wobble), UInt8(wobble)]))
        }
        _ = smoother.smooth(try halves(0))
        let out = smoother.smooth(try halves(8))
        #expect(out.values == [246, 246, 4, 4], "\(out.values)")
    }

    /// A mask of another size (another model, another camera) starts afresh, as does a reset.
    @Test func anotherSizeOrAResetStartsAfresh() {
        var smoother = MaskSmoother()
        _ = smoother.smooth(Self.mask(100))
        #expect(smoother.smooth(Self.mask(140, width: 8, height: 4)).values[0] == 140)
        smoother.reset()
        #expect(smoother.smooth(Self.mask(100, width: 8, height: 4)).values[0] == 100)
    }
}
