/// Why a cluster operation failed, said so it can be shown to a client or an operator.
public struct ClusterError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No live, active node can take the room (all full, draining or dead).
        case noNodeAvailable
        /// The database could not be reached or refused the statement.
        case database
        /// No node with that id.
        case unknownNode
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
