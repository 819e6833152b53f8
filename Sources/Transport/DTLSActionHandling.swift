import DTLS
import Net
import SRTP

/// What either end of a peer connection does with DTLS's actions: sends go to the selected
/// pair, the exported keys start SRTP (RFC 5764 §4.2), application data is SCTP for data
/// channels (RFC 8261), and a failure or close ends the connection.
protocol DTLSActionHandling: AnyObject {
    var remoteAddress: SocketAddress? { get }
    var srtp: SRTPSession? { get set }
    /// Who is on the other end, for the reason a close gives ("the server", "the peer").
    var remoteName: String { get }
    func transition(to next: ServerPeerConnection.State) -> [ServerPeerConnection.Event]
}

extension DTLSActionHandling {
    func dtlsEvents(_ actions: [DTLSAction]) -> [ServerPeerConnection.Event] {
        var events: [ServerPeerConnection.Event] = []
        for action in actions {
            switch action {
            case .send(let bytes):
                if let address = remoteAddress { events.append(.send(bytes, to: address)) }
            case .connected(let keys):
                do {
                    srtp = try SRTPSession(profile: keys.profile, local: keys.local, remote: keys.remote)
                    events += transition(to: .connected)
                } catch {
                    events += transition(to: .closed("SRTP could not start: \(error)"))
                }
            case .applicationData(let bytes):
                events.append(.applicationData(bytes))
            case .failed(let error):
                events += transition(to: .closed("DTLS failed: \(error)"))
            case .closed:
                events += transition(to: .closed("\(remoteName) closed DTLS"))
            }
        }
        return events
    }
}
