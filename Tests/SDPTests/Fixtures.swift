@testable import SDP

/// LF text with CRLF endings, as peers send it (RFC 8866 §5).
func crlf(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n") + "\r\n"
}

/// Parses a witnessed description; a parse failure fails the test that asked for it.
func parsed(_ text: String) throws -> SessionDescription { try SessionDescription(parsing: crlf(text)) }

/// The server side of the interop runs: the same transport, tracks and session id were used to
/// write the offer that Chromium, Firefox and aiortc answered in `Witnessed.*SubscriberAnswer`.
enum SubscriberFixture {
    static let fingerprint = Fingerprint(digest: (0..<32).map { UInt8($0 * 7) })
    static let transport = TransportParameters(iceUfrag: "Rv4kQ9dY", icePwd: "Q9dY2mZr7Lx0PqT4nWs8vBc1", fingerprints: [fingerprint],
                                               candidates: [HostCandidate(address: "127.0.0.1", port: 40000)])
    static let tracks = [
        OutgoingTrack(mid: "0", kind: .audio, codec: .opus, payloadType: 111, ssrc: 1111, cname: "alice-cname",
                      streamID: "alice", trackID: "alice-mic"),
        OutgoingTrack(mid: "1", kind: .video, codec: .vp8, payloadType: 96, rtxPayloadType: 97, ssrc: 2222, rtxSSRC: 3333,
                      cname: "alice-cname", streamID: "alice", trackID: "alice-cam"),
    ]
    static let builder = OfferBuilder(transport: transport, sessionID: 43)

    static func offer() throws -> SessionDescription { try builder.offer(tracks: tracks, dataChannelMid: "2") }
}

/// Whether every line of `text` ends in CRLF.
func onlyCRLF(_ text: String) -> Bool {
    var previous: Unicode.Scalar = " "
    for scalar in text.unicodeScalars {
        if scalar == "\n", previous != "\r" { return false }
        previous = scalar
    }
    return previous == "\n"
}
