"""A WHIP publisher (RFC 9725) built on aiortc: a solid-colour camera and a sine tone.

Usage: whip_publish.py URL TOKEN --color RRGGBB --tone HZ [--seconds S] [--alternate RRGGBB --period S]

It POSTs its SDP offer with `Authorization: Bearer TOKEN`, applies the answer, sends for
--seconds (or until SIGTERM), then DELETEs the session it was given in `Location`. Each state
change is printed as one JSON line, for the test that runs it. The machine's loopback is the
only network here: aioice is told to gather 127.0.0.1 (research/webrtc-interop.md §5), and
whatever else the namespace has (a cluster test's bridge, docs/CLUSTER.md "Testing").
"""
import argparse
import asyncio
import fractions
import json
import math
import signal
import sys
import urllib.error
import urllib.parse
import urllib.request

import aioice.ice
from aiortc import RTCConfiguration, RTCPeerConnection, RTCSessionDescription
from aiortc.mediastreams import AudioStreamTrack, VideoStreamTrack
from av import AudioFrame, VideoFrame

_namespace_addresses = aioice.ice.get_host_addresses


def host_addresses(use_ipv4=True, use_ipv6=False):
    others = [address for address in _namespace_addresses(use_ipv4=use_ipv4, use_ipv6=False) if address != "127.0.0.1"]
    return ["127.0.0.1"] + others


aioice.ice.get_host_addresses = host_addresses


def say(**fields):
    print(json.dumps(fields), flush=True)


def planes(rgb):
    r, g, b = rgb
    # BT.601 limited range, as the y4m files and the compositor use.
    y = round(16 + 0.257 * r + 0.504 * g + 0.098 * b)
    u = round(128 - 0.148 * r - 0.291 * g + 0.439 * b)
    v = round(128 + 0.439 * r - 0.368 * g - 0.071 * b)
    return (bytes([y]) * (640 * 360), bytes([u]) * (320 * 180), bytes([v]) * (320 * 180))


class ColourTrack(VideoStreamTrack):
    """640x360 frames of one colour at 30 fps; with `alternate`, the two colours take turns
    every `period` seconds, so a picture that stops changing shows a frozen stream."""

    def __init__(self, rgb, alternate=None, period=0.5):
        super().__init__()
        self.looks = [planes(rgb)] + ([planes(alternate)] if alternate else [])
        self.period = period

    async def recv(self):
        pts, time_base = await self.next_timestamp()
        frame = VideoFrame(width=640, height=360, format="yuv420p")
        look = self.looks[int(pts * time_base / self.period) % len(self.looks)]
        for plane, data in zip(frame.planes, look):
            plane.update(data)
        frame.pts, frame.time_base = pts, time_base
        return frame


class ToneTrack(AudioStreamTrack):
    """A sine tone, 20 ms frames of 48 kHz mono s16."""

    def __init__(self, frequency):
        super().__init__()
        self.frequency = frequency
        self.sample = 0

    async def recv(self):
        if not hasattr(self, "_start"):
            self._start = asyncio.get_event_loop().time()
        samples = 960
        due = self._start + self.sample / 48000
        wait = due - asyncio.get_event_loop().time()
        if wait > 0:
            await asyncio.sleep(wait)
        data = bytearray()
        for n in range(samples):
            value = int(12000 * math.sin(2 * math.pi * self.frequency * (self.sample + n) / 48000))
            data += value.to_bytes(2, "little", signed=True)
        frame = AudioFrame(format="s16", layout="mono", samples=samples)
        frame.planes[0].update(bytes(data))
        frame.sample_rate = 48000
        frame.pts = self.sample
        frame.time_base = fractions.Fraction(1, 48000)
        self.sample += samples
        return frame


def request(method, url, token, body=None):
    headers = {"Authorization": "Bearer " + token}
    if body is not None:
        headers["Content-Type"] = "application/sdp"
    req = urllib.request.Request(url, data=body.encode() if body is not None else None, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("token")
    parser.add_argument("--color", default="2040C0")
    parser.add_argument("--tone", type=float, default=1000)
    parser.add_argument("--seconds", type=float, default=3600)
    parser.add_argument("--alternate", help="a second colour, RRGGBB, taking turns with --color")
    parser.add_argument("--period", type=float, default=0.5, help="seconds of each colour with --alternate")
    arguments = parser.parse_args()
    rgb = tuple(int(arguments.color[i:i + 2], 16) for i in (0, 2, 4))
    alternate = tuple(int(arguments.alternate[i:i + 2], 16) for i in (0, 2, 4)) if arguments.alternate else None

    pc = RTCPeerConnection(RTCConfiguration(iceServers=[]))
    pc.on("connectionstatechange", lambda: say(event="connection", state=pc.connectionState))
    pc.addTransceiver(ToneTrack(arguments.tone), direction="sendonly")
    pc.addTransceiver(ColourTrack(rgb, alternate, arguments.period), direction="sendonly")
    await pc.setLocalDescription(await pc.createOffer())
    # A WHIP endpoint may redirect the offer (RFC 9725 section 4.5: 307 to the room's node in a
    # cluster); urllib follows no redirect of a POST, so the offer is posted again here.
    url = arguments.url
    for _ in range(4):
        status, headers, body = await asyncio.get_event_loop().run_in_executor(
            None, request, "POST", url, arguments.token, pc.localDescription.sdp)
        if status not in (307, 308):
            break
        url = urllib.parse.urljoin(url, headers.get("Location") or headers.get("location") or "")
        say(event="redirect", status=status, location=url)
    say(event="post", status=status, location=headers.get("Location") or headers.get("location"), body=body if status != 201 else "")
    if status != 201:
        await pc.close()
        return 1
    await pc.setRemoteDescription(RTCSessionDescription(sdp=body, type="answer"))
    location = urllib.parse.urljoin(url, headers.get("Location") or headers.get("location") or "")

    stop = asyncio.Event()
    asyncio.get_event_loop().add_signal_handler(signal.SIGTERM, stop.set)
    try:
        await asyncio.wait_for(stop.wait(), timeout=arguments.seconds)
    except asyncio.TimeoutError:
        pass
    status, _, _ = await asyncio.get_event_loop().run_in_executor(None, request, "DELETE", location, arguments.token)
    say(event="delete", status=status)
    await pc.close()
    return 0


sys.exit(asyncio.run(main()))
