"""Reads HLS playlists with PyPI's m3u8 (strict: a line it does not understand is an error) and
prints one JSON object per file: what a third-party reader makes of Revue's playlists."""
import json
import sys

import m3u8
from m3u8.parser import parse

for path in sys.argv[1:]:
    text = open(path, encoding="utf-8").read()
    parse(text, strict=True)
    playlist = m3u8.M3U8(text)
    whole = [s for s in playlist.segments if s.uri]
    print(json.dumps({
        "path": path,
        "variant": playlist.is_variant,
        "mediaSequence": playlist.media_sequence,
        "segments": [s.uri for s in whole],
        "parts": sum(len(s.parts) for s in playlist.segments),
        "edgeParts": [p.uri for s in playlist.segments if not s.uri for p in s.parts],
        "independentParts": sum(1 for s in playlist.segments for p in s.parts if p.independent == "YES"),
        "preloadHint": playlist.preload_hint.uri if playlist.preload_hint else None,
        "canBlockReload": playlist.server_control.can_block_reload if playlist.server_control else None,
        "partTarget": playlist.part_inf.part_target if playlist.part_inf else None,
        "skipped": playlist.skip.skipped_segments if playlist.skip else None,
        "ended": playlist.is_endlist,
    }))
