// WebRTC's audio processing module (Debian's libwebrtc-audio-processing-dev) is C++, which
// Swift does not import here: this system library only brings its pkg-config flags and its
// link line to CAudioProcessing, the C++ target that exposes it as a C API. Nothing to declare.
