# The reference for bench/virtual-background: the same work as Revue's virtual background, the
# way MediaPipe's own examples do it, in one Python process: each 640x360 picture of a y4m clip
# converted to RGB and scaled to 256x144 (OpenCV), segmented by the same landscape selfie model
# (MediaPipe 0.10.21), the mask scaled up and eased (OpenCV, numpy), blended over the background
# (cv2.blendLinear) and converted back to I420. Prints its CPU seconds for the loop alone as JSON.
# Usage: python virtual-background-reference.py CLIP.y4m BACKGROUND.png|blur FRAMES
import json
import resource
import sys

import cv2
import numpy
from mediapipe.python.solutions import selfie_segmentation

cv2.setNumThreads(1)
clip, background_path, frames = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(clip, "rb") as file:
    header = file.readline().split()
    width = int([w for w in header if w.startswith(b"W")][0][1:])
    height = int([h for h in header if h.startswith(b"H")][0][1:])
    size = width * height * 3 // 2
    pictures = []
    while True:
        if not file.readline():
            break
        pictures.append(numpy.frombuffer(file.read(size), dtype=numpy.uint8).reshape(height * 3 // 2, width))
# BACKGROUND "blur": the picture's own, blurred the way Revue does it (a quarter size, a 7-pixel
# box twice, scaled back up).
blur = background_path == "blur"
background = None if blur else cv2.resize(cv2.cvtColor(cv2.imread(background_path), cv2.COLOR_BGR2RGB), (width, height))
segmenter = selfie_segmentation.SelfieSegmentation(model_selection=1)
segmenter.process(numpy.zeros((144, 256, 3), numpy.uint8))  # loaded before the clock starts

def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

start = cpu()
checksum = 0
for index in range(frames):
    rgb = cv2.cvtColor(pictures[index % len(pictures)], cv2.COLOR_YUV2RGB_I420)
    mask = segmenter.process(cv2.resize(rgb, (256, 144), interpolation=cv2.INTER_AREA)).segmentation_mask
    alpha = numpy.clip((cv2.resize(mask, (width, height), interpolation=cv2.INTER_LINEAR) - 0.3) / 0.4, 0, 1)
    if blur:
        small = cv2.resize(rgb, (width // 4, height // 4), interpolation=cv2.INTER_AREA)
        small = cv2.blur(cv2.blur(small, (7, 7)), (7, 7))
        behind = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    else:
        behind = background
    out = cv2.blendLinear(rgb, behind, alpha, 1 - alpha)
    checksum += int(cv2.cvtColor(out, cv2.COLOR_RGB2YUV_I420)[height // 2, width // 2])
print(json.dumps({"cpu": cpu() - start, "frames": frames, "checksum": checksum}))
