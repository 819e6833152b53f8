"""aiortc's SCTP and data channels (RTCSctpTransport, RTCDataChannel) as the DTLS client, for
AiortcInteropTests. Usage:

    aiortc_sctp_peer.py <revue-udp-port> <own-udp-port>             SCTP in plain UDP datagrams
    aiortc_sctp_peer.py <revue-udp-port> <own-udp-port> <sha-256>   SCTP over aiortc's DTLS

With a fingerprint (Revue's certificate, "AB:CD:..."), aiortc's own RTCDtlsTransport runs
over a UDP stand-in for its ICE transport, and the first line printed is aiortc's
fingerprint. Prints one JSON object per line on standard output for every event, and exits
when Revue sends "bye" (or after 30 seconds)."""

import asyncio
import json
import sys

from aiortc import (RTCCertificate, RTCDataChannel, RTCDataChannelParameters, RTCDtlsFingerprint,
                    RTCDtlsParameters, RTCDtlsTransport, RTCSctpTransport)
from aiortc.rtcsctptransport import RTCSctpCapabilities


def report(**event):
    print(json.dumps(event), flush=True)


class UDPDtlsStandIn(asyncio.DatagramProtocol):
    """What RTCSctpTransport uses of RTCDtlsTransport, over UDP without encryption."""

    def __init__(self, peer):
        self.peer = peer
        self.state = "connected"
        self._role = "client"
        self._receiver = None
        self._udp = None

    def connection_made(self, transport):
        self._udp = transport

    def datagram_received(self, data, address):
        if self._receiver is not None:
            asyncio.ensure_future(self._receiver._handle_data(data))

    def _register_data_receiver(self, receiver):
        self._receiver = receiver

    def _unregister_data_receiver(self, receiver):
        if self._receiver is receiver:
            self._receiver = None

    async def _send_data(self, data):
        self._udp.sendto(data, self.peer)


class UDPIceStandIn(asyncio.DatagramProtocol):
    """What RTCDtlsTransport uses of RTCIceTransport: a role and datagrams both ways."""

    def __init__(self, peer):
        self.peer = peer
        # Controlled, so RTCDtlsTransport takes the DTLS client role, as aiortc does against
        # an ICE-lite server.
        self.role = "controlled"
        self.state = "completed"
        self._queue = asyncio.Queue()
        self._udp = None

    def connection_made(self, transport):
        self._udp = transport

    def datagram_received(self, data, address):
        self._queue.put_nowait(data)

    async def _recv(self):
        return await self._queue.get()

    async def _send(self, data):
        self._udp.sendto(data, self.peer)


async def main(revue_port, own_port, revue_fingerprint):
    loop = asyncio.get_running_loop()
    done = loop.create_future()
    if revue_fingerprint is None:
        stand_in = UDPDtlsStandIn(("127.0.0.1", revue_port))
        await loop.create_datagram_endpoint(lambda: stand_in, local_addr=("127.0.0.1", own_port))
        sctp = RTCSctpTransport(stand_in)
    else:
        ice = UDPIceStandIn(("127.0.0.1", revue_port))
        await loop.create_datagram_endpoint(lambda: ice, local_addr=("127.0.0.1", own_port))
        certificate = RTCCertificate.generateCertificate()
        own = [f for f in certificate.getFingerprints() if f.algorithm == "sha-256"][0]
        report(event="fingerprint", text=own.value)
        dtls = RTCDtlsTransport(ice, [certificate])
        await dtls.start(RTCDtlsParameters(fingerprints=[RTCDtlsFingerprint("sha-256", revue_fingerprint)]))
        report(event="dtls", text=dtls.state)
        sctp = RTCSctpTransport(dtls)

    def describe(payload):
        if isinstance(payload, str):
            return {"text": payload}
        return {"binary": len(payload), "sum": sum(payload) % 65536}

    def watch(channel):
        @channel.on("message")
        def on_message(payload):
            report(event="message", label=channel.label, id=channel.id, **describe(payload))
            if payload == "bye" and not done.done():
                done.set_result(None)
            elif isinstance(payload, str) and not payload.startswith("echo:"):
                channel.send("echo:" + payload)

        @channel.on("close")
        def on_close():
            report(event="closed", label=channel.label, id=channel.id)

    @sctp.on("datachannel")
    def on_datachannel(channel):
        report(event="datachannel", label=channel.label, id=channel.id, ordered=channel.ordered,
               maxRetransmits=channel.maxRetransmits, protocol=channel.protocol)
        watch(channel)

    chat = RTCDataChannel(sctp, RTCDataChannelParameters(label="chat", protocol="revue-chat"))
    game = RTCDataChannel(sctp, RTCDataChannelParameters(label="game", ordered=False, maxRetransmits=0))
    watch(chat)
    watch(game)

    @chat.on("open")
    def on_open():
        report(event="open", label="chat", id=chat.id)
        chat.send("hello from aiortc")
        chat.send(bytes([7]))
        chat.send(bytes(i % 251 for i in range(15 * 1024)))
        chat.send(bytes(i % 253 for i in range(64 * 1024)))
        chat.send("")

    @game.on("open")
    def on_game_open():
        game.send("ping")

    await sctp.start(RTCSctpCapabilities(maxMessageSize=65536), 5000)
    try:
        await asyncio.wait_for(done, 30)
    except asyncio.TimeoutError:
        report(event="timeout")
    await sctp.stop()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else None))
