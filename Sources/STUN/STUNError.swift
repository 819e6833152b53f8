/// Bytes that are not a valid STUN message, or a message that cannot be serialised. The
/// description names the field and the problem.
///
/// When the 20-byte header was valid and only an attribute was wrong, `messageType` and
/// `transactionID` are set, so a server can still answer a malformed request with 400 (Bad
/// Request, RFC 8489 §6.3.1).
public struct STUNError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Reason: Sendable, Equatable {
        case truncated(String, needed: Int, available: Int)
        case notSTUN(String)
        case badAttribute(UInt16, String)
        case unrepresentable(String)
    }

    let reason: Reason
    /// The message's type, when its header could be read.
    public let messageType: STUNMessageType?
    /// The message's transaction ID, when its header could be read.
    public let transactionID: STUNTransactionID?

    init(_ reason: Reason, messageType: STUNMessageType? = nil, transactionID: STUNTransactionID? = nil) {
        self.reason = reason
        self.messageType = messageType
        self.transactionID = transactionID
    }

    /// The same problem, tagged with the header it was found under.
    func with(messageType: STUNMessageType, transactionID: STUNTransactionID) -> STUNError {
        STUNError(reason, messageType: messageType, transactionID: transactionID)
    }

    public var description: String {
        switch reason {
        case .truncated(let field, let needed, let available):
            "truncated STUN message: \(field) needs \(needed) bytes, \(available) left"
        case .notSTUN(let why):
            "not a STUN message: \(why)"
        case .badAttribute(let type, let why):
            "bad STUN attribute \(STUNAttributeType(rawValue: type)): \(why)"
        case .unrepresentable(let why):
            "cannot serialise STUN message: \(why)"
        }
    }
}
