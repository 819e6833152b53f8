import DTLS
import Foundation
import HTTP
import Net
import SDP
import TestSupport
import Testing
import Transport

/// The transport against a real browser: headless Chromium 156 publishes a fake camera and
/// microphone to a bare WHIP-style endpoint (an offer POSTed, the answer back), and the server's
/// connection must pass ICE, finish DTLS (Chromium offers 1.3; OpenSSL answers 1.2) and decrypt
/// its SRTP.
@Suite(.serialized, .browser, .timeLimit(.minutes(10))) struct ChromiumTransportTests {
    /// Counts what the server decrypted, per SSRC (touched on the loop, read after sync).
    final class Counter: @unchecked Sendable {
        var rtp: [UInt32: Int] = [:]
        var rtcp = 0
        var states: [ServerPeerConnection.State] = []
    }

    static let page = """
        <!doctype html><html><body><script>
        window.report = {state: "new"};
        async function publish() {
          const stream = await navigator.mediaDevices.getUserMedia({audio: true, video: {width: 320, height: 240}});
          const pc = new RTCPeerConnection({iceServers: [], bundlePolicy: "max-bundle"});
          for (const track of stream.getTracks()) pc.addTransceiver(track, {direction: "sendonly"});
          pc.onconnectionstatechange = () => { window.report.state = pc.connectionState; };
          await pc.setLocalDescription(await pc.createOffer());
          const answer = await fetch("/whip", {method: "POST", headers: {"Content-Type": "application/sdp"}, body: pc.localDescription.sdp});
          await pc.setRemoteDescription({type: "answer", sdp: await answer.text()});
          window.pc = pc;
        }
        async function stats() {
          const out = {state: window.pc ? window.pc.connectionState : "none", sent: 0, dtls: null, cipher: null};
          if (!window.pc) return out;
          (await window.pc.getStats()).forEach(s => {
            if (s.type === "outbound-rtp") out.sent += s.packetsSent || 0;
            if (s.type === "transport") { out.dtls = s.tlsVersion || s.dtlsState; out.cipher = s.srtpCipher; }
          });
          return out;
        }
        publish().catch(e => { window.report.error = String(e); });
        </script></body></html>
        """

    @Test func chromiumPublishesThroughICEDTLSAndSRTP() throws {
        try LoopbackNamespace.require()
        let rtc = try RTCServer(configuration: .init(listen: SocketAddress(ip: .loopbackV4, port: 0)))
        let counter = Counter()
        rtc.handler.rtp = { _, packet in
            guard packet.count >= 12 else { return }
            let ssrc = UInt32(packet[8]) << 24 | UInt32(packet[9]) << 16 | UInt32(packet[10]) << 8 | UInt32(packet[11])
            counter.rtp[ssrc, default: 0] += 1
        }
        rtc.handler.rtcp = { _, _ in counter.rtcp += 1 }
        rtc.handler.stateChanged = { _, state in counter.states.append(state) }
        rtc.start()
        defer { rtc.stop() }

        let http = HTTPServer { request, _ in
            if request.method == "GET" { return .response(HTTPResponse(status: 200, contentType: "text/html", body: Array(Self.page.utf8))) }
            do {
                let offer = try SessionDescription(parsing: String(decoding: request.body, as: UTF8.self))
                guard let first = offer.media.first else { return .response(.text(400, "no media")) }
                let remoteUfrag = offer.iceUfrag(of: first) ?? ""
                let fingerprints = offer.fingerprints(of: first).compactMap { try? DTLSFingerprint(algorithm: $0.hashFunction, value: $0.value) }
                let credentials = try rtc.loop.sync { try rtc.open(remoteUfrag: remoteUfrag, remoteFingerprints: fingerprints).localCredentials }
                let fingerprint = rtc.certificate.fingerprint
                let transport = TransportParameters(
                    iceUfrag: credentials.ufrag, icePwd: credentials.pwd,
                    fingerprints: [Fingerprint(hashFunction: fingerprint.algorithm.rawValue, value: fingerprint.value)],
                    candidates: [HostCandidate(address: "\(rtc.announcedAddress.ip)", port: rtc.announcedAddress.port)])
                let answer = try AnswerBuilder(transport: transport, sessionID: 1).answer(to: offer)
                return .response(HTTPResponse(status: 201, contentType: "application/sdp", body: Array(answer.description.serialize().utf8)))
            } catch {
                return .response(.text(400, "\(error)"))
            }
        }
        let port = try http.start(host: "127.0.0.1", port: 0)
        defer { http.stop() }

        let chromium = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments())
        let page = try chromium.open("http://127.0.0.1:\(port)/")
        var last: [String: Any] = [:]
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            last = (try page.evaluate("stats()") as? [String: Any]) ?? [:]
            if last["state"] as? String == "connected", (last["sent"] as? Int ?? 0) > 100 { break }
            Thread.sleep(forTimeInterval: 0.25)
        }
        #expect(last["state"] as? String == "connected", "\(last) \(String(describing: try? page.evaluate("JSON.stringify(window.report)")))")
        let seen = try rtc.loop.sync { (counter.rtp, counter.rtcp, counter.states) }
        #expect(seen.2.contains(.connected), "\(seen.2)")
        #expect(seen.0.count >= 2, "RTP from audio and video: \(seen.0)")
        #expect(seen.0.values.reduce(0, +) > 100)
        #expect(rtc.statistics.unrouted == 0)
    }
}
