import Foundation
@testable import RoomServer
import Testing

/// A whiteboard stroke is read from whatever a page posts: the well-formed ones kept exactly,
/// random bytes and near-misses refused with a reason, never a crash.
@Suite struct WhiteboardsTests {
    @Test func aStrokeIsReadBackAsSent() throws {
        let body = Array(##"{"colour":"#A0B0C0","width":2.5,"points":[[0,0],[1,1],[0.25,0.75]]}"##.utf8)
        guard case .success(let stroke) = Whiteboards.Stroke.parse(body) else { Issue.record("refused"); return }
        #expect(stroke == Whiteboards.Stroke(colour: "#a0b0c0", width: 2.5, points: [[0, 0], [1, 1], [0.25, 0.75]]))
        let again = Array(stroke.json.text.utf8)
        #expect(Whiteboards.Stroke.parse(again) == .success(stroke))
    }

    @Test func randomBodiesAreRefusedNotCrashedOn() {
        var generator = SystemRandomNumberGenerator()
        let good = Array(##"{"colour":"#000000","width":3,"points":[[0.5,0.5],[0.6,0.6]]}"##.utf8)
        var accepted = 0
        for round in 0..<5_000 {
            var body: [UInt8]
            if round % 2 == 0 {
                body = (0..<Int.random(in: 0...80, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            } else {
                // Near misses: the good body with a few bytes changed.
                body = good
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    body[Int.random(in: 0..<body.count, using: &generator)] = UInt8.random(in: 32...126, using: &generator)
                }
            }
            if case .success(let stroke) = Whiteboards.Stroke.parse(body) {
                accepted += 1
                #expect((1...50).contains(stroke.width) && stroke.points.allSatisfy { $0.allSatisfy { (0...1).contains($0) } })
            }
        }
        #expect(accepted < 5_000)
        let tooMany = "{\"colour\":\"#000000\",\"width\":3,\"points\":[" + Array(repeating: "[0,0]", count: 1_001).joined(separator: ",") + "]}"
        #expect(Whiteboards.Stroke.parse(Array(tooMany.utf8)) == .failure(.init(reason: "points must hold 1 to 1000 points")))
    }
}
