import Net
import STUN

/// What an incoming datagram is, once checked the way RFC 8489 §6.3 and §9.1.3 and RFC 8445
/// §7.3 ask, for both ICE agents to share.
enum IncomingSTUN {
    /// Not STUN, not for us, or to be dropped silently (a bad FINGERPRINT, an indication).
    case ignore
    /// An error response to send back to the source.
    case reject([UInt8])
    /// A Binding request that passed every check.
    case request(AuthenticatedRequest)
    /// A response, for the caller to match to its own requests.
    case response(STUNMessage)
}

/// A Binding request whose USERNAME, MESSAGE-INTEGRITY and FINGERPRINT were right.
struct AuthenticatedRequest {
    var message: STUNMessage
    var priority: UInt32
    var useCandidate: Bool
    var controlling: UInt64?
    var controlled: UInt64?
}

/// The server side of a check, shared by `ICELiteResponder` and `ICEControllingAgent`.
enum BindingRequests {
    /// Sorts and checks a datagram. `local` are this agent's credentials (the request's USERNAME
    /// starts with its ufrag and MESSAGE-INTEGRITY is keyed with its password); `remoteUfrag`,
    /// when known, must be the USERNAME's second half.
    ///
    /// The order is RFC 8489's: the header and FINGERPRINT first (silently dropped when wrong, since
    /// on a shared port it may be another protocol), then authentication (§9.1.3: 400 when USERNAME or
    /// MESSAGE-INTEGRITY is missing, 401 when either is wrong, neither answer carrying
    /// MESSAGE-INTEGRITY), then unknown comprehension-required attributes (420) and the ICE
    /// attributes (400 without PRIORITY), both answered with MESSAGE-INTEGRITY. RFC 8445 §7.1
    /// requires FINGERPRINT on checks, so a request without it gets 400, as mediasoup answers.
    static func classify(_ bytes: [UInt8], local: ICECredentials, remoteUfrag: String?) -> IncomingSTUN {
        guard STUNMessage.looksLikeSTUN(bytes) else { return .ignore }
        let message: STUNMessage
        do {
            message = try STUNMessage(parsing: bytes)
        } catch {
            // RFC 8489 §6.3.1: a malformed request is answered with 400 when its header is sound.
            guard let type = error.messageType, type.messageClass == .request, let id = error.transactionID else { return .ignore }
            return .reject(errorResponse(.badRequest, method: type.method, transactionID: id, key: nil))
        }
        switch message.type.messageClass {
        case .indication: return .ignore
        case .successResponse, .errorResponse: return .response(message)
        case .request: break
        }
        func reject(_ code: STUNErrorCode, authenticated: Bool, unknown: [UInt16] = []) -> IncomingSTUN {
            .reject(errorResponse(code, method: message.type.method, transactionID: message.transactionID,
                                  key: authenticated ? Array(local.pwd.utf8) : nil, unknown: unknown))
        }
        guard message.fingerprint != nil else { return reject(.badRequest, authenticated: false) }
        guard message.verifyFingerprint() else { return .ignore }
        guard message.type.method == .binding else { return reject(.badRequest, authenticated: false) }
        guard let username = message.username, message.messageIntegrity != nil else {
            return reject(.badRequest, authenticated: false)
        }
        let usernameMatches = if let remoteUfrag {
            username == "\(local.ufrag):\(remoteUfrag)"
        } else {
            username.hasPrefix("\(local.ufrag):")
        }
        guard usernameMatches, message.verifyIntegrity(key: Array(local.pwd.utf8)) else {
            return reject(.unauthenticated, authenticated: false)
        }
        let unknown = message.unknownComprehensionRequired
        guard unknown.isEmpty else { return reject(.unknownAttribute, authenticated: true, unknown: unknown) }
        guard let priority = message.priority else { return reject(.badRequest, authenticated: true) }
        return .request(AuthenticatedRequest(message: message, priority: priority, useCandidate: message.useCandidate,
                                             controlling: message.iceControlling, controlled: message.iceControlled))
    }

    /// A success response: XOR-MAPPED-ADDRESS of the request's source, MESSAGE-INTEGRITY keyed with
    /// the local password, FINGERPRINT (RFC 8445 §7.3.1, RFC 8489 §9.1.3).
    static func successResponse(to request: STUNMessage, source: SocketAddress, key: [UInt8]) -> [UInt8] {
        let response = STUNMessage(type: STUNMessageType(method: request.type.method, messageClass: .successResponse),
                                   transactionID: request.transactionID, attributes: [.xorMappedAddress(source)])
        // Cannot throw: the only attribute is an address, and no integrity attribute is given.
        return (try? response.marshal(integrityKey: key, fingerprint: true)) ?? []
    }

    /// An error response with ERROR-CODE (and UNKNOWN-ATTRIBUTES for 420), MESSAGE-INTEGRITY when
    /// the request was authenticated, and FINGERPRINT.
    static func errorResponse(_ code: STUNErrorCode, method: STUNMethod, transactionID: STUNTransactionID, key: [UInt8]?,
                              unknown: [UInt16] = []) -> [UInt8] {
        var attributes: [STUNAttribute] = [.errorCode(code)]
        if !unknown.isEmpty { attributes.append(.unknownAttributes(unknown)) }
        let response = STUNMessage(type: STUNMessageType(method: method, messageClass: .errorResponse),
                                   transactionID: transactionID, attributes: attributes)
        // Cannot throw: the codes are constants in range and the unknown types came from a parsed message.
        return (try? response.marshal(integrityKey: key, fingerprint: true)) ?? []
    }
}
