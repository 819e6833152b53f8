import Net

/// What an `ICEControllingAgent` asks its owner to do or tells it.
public enum ICEAgentAction: Sendable, Equatable {
    /// Send these bytes to this address.
    case send([UInt8], to: SocketAddress)
    /// A pair was nominated and works: send media (DTLS, SRTP) to this address.
    case connected(SocketAddress)
    /// Stop: no pair works, or consent ended.
    case failed(ICEAgentFailure)
}

/// Why an `ICEControllingAgent` failed.
public enum ICEAgentFailure: Sendable, Equatable, CustomStringConvertible {
    /// No remote UDP candidate with an IP address to check.
    case noCandidates
    /// The ufrags make a USERNAME longer than STUN's 513 bytes.
    case invalidCredentials
    /// Every check failed or timed out.
    case checksFailed
    /// Every check timed out, and some got error responses without valid MESSAGE-INTEGRITY, which RFC
    /// 8489 §9.1.4 says to discard: what a wrong remote password looks like (the peer answers 401).
    case unauthenticated
    /// No authenticated answer to consent checks for the consent timeout (RFC 7675 §5.1).
    case consentLost

    public var description: String {
        switch self {
        case .noCandidates: "no remote UDP candidate with an IP address"
        case .invalidCredentials: "ICE credentials too long for a STUN USERNAME"
        case .checksFailed: "every ICE connectivity check failed"
        case .unauthenticated: "ICE checks got only unauthenticated error responses: wrong remote ICE password?"
        case .consentLost: "ICE consent lost: no answer to consent checks for 30 s"
        }
    }
}

/// How the controlling agent nominates (RFC 8445 §8.1.1).
public enum ICENomination: Sendable, Hashable {
    /// A plain check first, then the same pair again with USE-CANDIDATE once it worked: RFC 8445's
    /// only method, and what aioice does toward lite peers.
    case regular
    /// USE-CANDIDATE on every check, so the first answer connects: one round trip less. RFC 5245
    /// allowed it; lite servers (mediasoup, Revue) accept it.
    case aggressive
}
