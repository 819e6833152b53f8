// A C API over WebRTC's audio processing module (webrtc::AudioProcessing, the version Debian
// ships as libwebrtc-audio-processing 0.3), so Swift can own one without C++ interop: create,
// feed 10 ms frames of the far-end (what the loudspeaker plays) and of the microphone, destroy.
#ifndef REVUE_AUDIO_PROCESSING_H
#define REVUE_AUDIO_PROCESSING_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Which of the module's stages run; each is off when 0.
typedef struct revue_apm_settings {
    /// Noise suppression (webrtc::NoiseSuppression), and its level: 0 low … 3 very high.
    int noise_suppression;
    int noise_suppression_level;
    /// Acoustic echo cancellation (webrtc::EchoCancellation, the full AEC with its extended
    /// filter and delay-agnostic mode), which needs the far-end stream.
    int echo_cancellation;
    /// Adaptive digital gain control (webrtc::GainControl::kAdaptiveDigital, limiter on),
    /// towards `gain_target_dbfs` below full scale (0–31).
    int gain_control;
    int gain_target_dbfs;
    /// The high-pass filter (webrtc::HighPassFilter) that removes hum and DC.
    int high_pass_filter;
} revue_apm_settings;

typedef struct revue_apm revue_apm;

/// A module for mono audio at `sample_rate` (8000, 16000, 32000 or 48000). NULL on failure,
/// with a message in `error` (`error_size` bytes, always terminated).
revue_apm *revue_apm_create(const revue_apm_settings *settings, int sample_rate, char *error, size_t error_size);
void revue_apm_destroy(revue_apm *apm);

/// The samples in one 10 ms frame.
size_t revue_apm_frame_samples(const revue_apm *apm);

/// One 10 ms frame of the far-end stream (±1 floats), before the microphone frame it echoes in.
/// 0, or the module's error code.
int revue_apm_analyze_far_end(revue_apm *apm, const float *samples);

/// One 10 ms frame of the microphone (±1 floats), processed in place. `delay_ms` is the time
/// between a far-end frame's analysis and its echo reaching the microphone (used only with echo
/// cancellation). 0, or the module's error code.
int revue_apm_process(revue_apm *apm, float *samples, int delay_ms);

/// Whether the echo canceller found echo in the last processed frame.
int revue_apm_stream_has_echo(const revue_apm *apm);

#ifdef __cplusplus
}
#endif

#endif
