/// Where each attempt to rejoin a room goes (docs/CLUSTER.md, "A node dies"). A client enters
/// through a door (the URL the app gave); in a cluster the server's `joined` also lists the live
/// nodes' doors, and a drain's `redirect` says where the room moved. Rejoining, the client tries
/// the room's new node first and then every other attempt, and in between its own door and the
/// others in turn, leaving out the node whose connection was lost (unless there is no other: a
/// single server): that node most likely died, and while it is alive the doors send the client
/// back to it anyway. A dead door costs one attempt; the first live door after the node
/// counts as dead places the room again.
public struct RejoinRoute: Sendable, Equatable {
    /// The URL the client was given.
    public var door: String
    /// Where the server said the room moved, if it did.
    public var movedTo: String?
    /// The cluster's doors, as the last `joined` listed them.
    public var doors: [String]
    /// The node whose connection was lost (where the last join ended up, after redirects).
    public var lost: String?

    public init(door: String, movedTo: String? = nil, doors: [String] = [], lost: String? = nil) {
        self.door = door
        self.movedTo = movedTo
        self.doors = doors
        self.lost = lost
    }

    /// The doors in the order they are tried: the client's own first, each once, without the
    /// lost node while there is another.
    var rotation: [String] {
        var order: [String] = []
        for candidate in [door] + doors where candidate != movedTo && !order.contains(candidate) { order.append(candidate) }
        let others = order.filter { $0 != lost }
        return others.isEmpty ? [door] : others
    }

    /// The URL for attempt `attempt` (1 is the first).
    public func target(attempt: Int) -> String {
        let rotation = rotation
        let index = max(0, attempt - 1)
        guard let movedTo else { return rotation[index % rotation.count] }
        return index % 2 == 0 ? movedTo : rotation[(index / 2) % rotation.count]
    }
}
