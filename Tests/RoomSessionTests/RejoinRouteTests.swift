import RoomSession
import Testing

/// Where rejoin attempts go (docs/CLUSTER.md, "A node dies"): the door alone; the doors in turn
/// when the cluster listed them, without the node lost; the room's new node every other attempt
/// after a move.
@Suite struct RejoinRouteTests {
    static let a = "ws://192.0.2.11:8080/v2/rtc", b = "ws://192.0.2.12:8080/v2/rtc", c = "ws://192.0.2.13:8080/v2/rtc"

    @Test func aSingleServerIsAlwaysTheDoor() {
        let route = RejoinRoute(door: Self.a)
        #expect((1...5).map(route.target(attempt:)) == Array(repeating: Self.a, count: 5))
    }

    @Test func theDoorsAreTriedInTurnTheClientsOwnFirst() {
        // The cluster lists its doors sorted; the client's own door (b) leads, each once.
        let route = RejoinRoute(door: Self.b, doors: [Self.a, Self.b, Self.c])
        #expect((1...6).map(route.target(attempt:)) == [Self.b, Self.a, Self.c, Self.b, Self.a, Self.c])
    }

    @Test func aMovedRoomIsTriedFirstAndThenEveryOtherAttempt() {
        let route = RejoinRoute(door: Self.a, movedTo: Self.c, doors: [Self.a, Self.b, Self.c])
        #expect((1...6).map(route.target(attempt:)) == [Self.c, Self.a, Self.c, Self.b, Self.c, Self.a])
        let alone = RejoinRoute(door: Self.a, movedTo: Self.b)
        #expect((1...4).map(alone.target(attempt:)) == [Self.b, Self.a, Self.b, Self.a])
    }

    @Test func theLostNodeIsLeftOutWhileThereIsAnother() {
        // The client came in through a (redirected to b, the room's node), and lost b.
        let route = RejoinRoute(door: Self.a, doors: [Self.a, Self.b, Self.c], lost: Self.b)
        #expect((1...4).map(route.target(attempt:)) == [Self.a, Self.c, Self.a, Self.c])
        // Its door was the room's node, which it lost: the other doors only.
        let direct = RejoinRoute(door: Self.b, doors: [Self.a, Self.b, Self.c], lost: Self.b)
        #expect((1...4).map(direct.target(attempt:)) == [Self.a, Self.c, Self.a, Self.c])
        // One server: its own door, whatever was lost.
        #expect((1...2).map(RejoinRoute(door: Self.a, lost: Self.a).target(attempt:)) == [Self.a, Self.a])
    }

    @Test func attemptZeroOrLessIsTheFirst() {
        #expect(RejoinRoute(door: Self.a, doors: [Self.b]).target(attempt: 0) == Self.a)
        #expect(RejoinRoute(door: Self.a, doors: [Self.b]).target(attempt: -3) == Self.a)
    }
}
