import ICE
import Net
import STUN

/// Builders for the checks and answers the ICE tests expect, written with the STUN module (whose
/// own tests pin it to RFC 5769), not with the ICE code under test.
enum Wire {
    static let server = ICECredentials(ufrag: "Rv4k", pwd: "Q9dY2mZr7Lx0PqT4nWs8vBc1")
    static let client = ICECredentials(ufrag: "cLi3", pwd: "clientPasswordIsLong+/22")
    static let serverAddress = SocketAddress(ip: .loopbackV4, port: 40000)
    static let clientAddress = SocketAddress(ip: .loopbackV4, port: 50000)
    static let otherClientAddress = SocketAddress(ip: IPAddress(ipv4: 0xC0A8_0105), port: 50001)

    static func id(_ byte: UInt8) -> STUNTransactionID {
        // Twelve bytes always make an ID; the fallback is never taken.
        STUNTransactionID(bytes: [UInt8](repeating: byte, count: 12)) ?? .random()
    }

    /// A Binding request as a client checks the server: USERNAME `server:client`, keyed with the server's password.
    static func check(_ id: STUNTransactionID, attributes: [STUNAttribute]? = nil, username: String? = "Rv4k:cLi3",
                      key: String? = "Q9dY2mZr7Lx0PqT4nWs8vBc1", useCandidate: Bool = false, fingerprint: Bool = true,
                      type: STUNMessageType = .bindingRequest) -> [UInt8] {
        var list = attributes ?? [.priority(1_862_270_975), .iceControlling(7)]
        if let username { list.insert(.username(username), at: 0) }
        if useCandidate { list.append(.useCandidate) }
        let message = STUNMessage(type: type, transactionID: id, attributes: list)
        return (try? message.marshal(integrityKey: key.map { Array($0.utf8) }, fingerprint: fingerprint)) ?? []
    }

    /// A success response with XOR-MAPPED-ADDRESS, keyed with `key`.
    static func success(_ id: STUNTransactionID, mapped: SocketAddress, key: String) -> [UInt8] {
        let message = STUNMessage(type: .bindingSuccess, transactionID: id, attributes: [.xorMappedAddress(mapped)])
        return (try? message.marshal(integrityKey: Array(key.utf8), fingerprint: true)) ?? []
    }

    /// An error response, keyed with `key` when given.
    static func error(_ id: STUNTransactionID, _ code: STUNErrorCode, key: String?, extra: [STUNAttribute] = [],
                      method: STUNMethod = .binding) -> [UInt8] {
        let message = STUNMessage(type: STUNMessageType(method: method, messageClass: .errorResponse), transactionID: id,
                                  attributes: [.errorCode(code)] + extra)
        return (try? message.marshal(integrityKey: key.map { Array($0.utf8) }, fingerprint: true)) ?? []
    }
}
