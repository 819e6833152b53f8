# Revue's person-segmentation helper: MediaPipe's selfie-segmentation model in a process of its own.
# PersonSegmenter (Sources/Segmentation) starts it, and it exits at end of input.
#
# Protocol, one request at a time:
#   helper -> Revue, once loaded:  {"type": "ready", "engine": "mediapipe", "version": V, "model": M}\n
#   Revue -> helper:  segment ID WIDTH HEIGHT\n  then WIDTH*HEIGHT*3 bytes of RGB24, row by row
#   helper -> Revue:  mask ID WIDTH HEIGHT\n     then WIDTH*HEIGHT bytes, person probability 0..255
#                 or  error ID message\n          (the helper lives on)
#   Revue -> helper:  quit\n
# A line that cannot be read ends the helper with a message on standard error: Revue restarts it.
import json
import os
import sys

MAX_SIDE = 1024

# The protocol has standard output to itself: whatever MediaPipe or its logging prints goes to
# standard error instead.
# Buffered, and flushed after each answer: a raw unbuffered write may write only part.
protocol = os.fdopen(os.dup(1), "wb")
os.dup2(2, 1)
requests = sys.stdin.buffer


def say(answer):
    protocol.write(answer)
    protocol.flush()


def fail(message):
    sys.stderr.write(message + "\n")
    sys.stderr.flush()
    sys.exit(2)


def main():
    model = sys.argv[1] if len(sys.argv) > 1 else "landscape"
    if model not in ("landscape", "general"):
        say((json.dumps({"type": "error", "message": "unknown model " + model}) + "\n").encode())
        return
    try:
        import numpy
        import mediapipe
        from mediapipe.python.solutions import selfie_segmentation
        segmenter = selfie_segmentation.SelfieSegmentation(model_selection=1 if model == "landscape" else 0)
    except Exception as error:  # an install that is missing or broken: say why, then end
        say((json.dumps({"type": "error", "message": "cannot load MediaPipe: %s" % error}) + "\n").encode())
        return
    name = "selfie_segmentation_landscape" if model == "landscape" else "selfie_segmentation"
    say((json.dumps({"type": "ready", "engine": "mediapipe", "version": mediapipe.__version__, "model": name}) + "\n").encode())

    while True:
        line = requests.readline(256)
        if not line or line.strip() == b"quit":
            return
        words = line.split()
        if len(words) != 4 or words[0] != b"segment":
            fail("not a request: %r" % line[:80])
        try:
            request, width, height = int(words[1]), int(words[2]), int(words[3])
        except ValueError:
            fail("not a request: %r" % line[:80])
        if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
            fail("a picture of %dx%d is outside 1..%d" % (width, height, MAX_SIDE))
        size = width * height * 3
        pixels = requests.read(size)
        if len(pixels) != size:
            fail("the picture ended after %d of %d bytes" % (len(pixels), size))
        try:
            image = numpy.frombuffer(pixels, dtype=numpy.uint8).reshape(height, width, 3)
            probability = segmenter.process(image).segmentation_mask
            mask = numpy.clip(probability * 255.0 + 0.5, 0, 255).astype(numpy.uint8)
            if mask.shape != (height, width):
                raise ValueError("the model answered %s for %dx%d" % (mask.shape, width, height))
        except Exception as error:
            say(("error %d %s\n" % (request, str(error).replace("\n", " ")[:300])).encode())
            continue
        say(b"mask %d %d %d\n" % (request, width, height) + mask.tobytes())


main()
