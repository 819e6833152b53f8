// The C API of revue_audio_processing.h over webrtc::AudioProcessing (libwebrtc-audio-processing
// 0.3). Mono float frames of 10 ms, the module's own chunk size (AudioProcessing::kChunkSizeMs).
#include "revue_audio_processing.h"

#include <webrtc/common.h>
#include <webrtc/modules/audio_processing/include/audio_processing.h>

#include <cstdio>
#include <memory>
#include <new>

struct revue_apm {
    std::unique_ptr<webrtc::AudioProcessing> module;
    webrtc::StreamConfig stream;
    bool echo_cancellation;
};

namespace {

void describe(char *error, size_t size, const char *what, int code) {
    if (error != nullptr && size > 0) std::snprintf(error, size, "%s (error %d)", what, code);
}

webrtc::NoiseSuppression::Level level(int value) {
    switch (value) {
    case 0: return webrtc::NoiseSuppression::kLow;
    case 1: return webrtc::NoiseSuppression::kModerate;
    case 2: return webrtc::NoiseSuppression::kHigh;
    default: return webrtc::NoiseSuppression::kVeryHigh;
    }
}

}  // namespace

extern "C" revue_apm *revue_apm_create(const revue_apm_settings *settings, int sample_rate, char *error, size_t error_size) {
    if (settings == nullptr || (sample_rate != 8000 && sample_rate != 16000 && sample_rate != 32000 && sample_rate != 48000)) {
        describe(error, error_size, "unusable settings or sample rate", sample_rate);
        return nullptr;
    }
    webrtc::Config config;
    // The full AEC's extended filter and its own delay estimate: a publisher cannot know the
    // loudspeaker-to-microphone delay exactly, and these make the canceller find it.
    config.Set<webrtc::ExtendedFilter>(new webrtc::ExtendedFilter(true));
    config.Set<webrtc::DelayAgnostic>(new webrtc::DelayAgnostic(true));
    // The "experimental" AGC drives an analogue microphone volume, which a file or a server has
    // not got; the digital gain control below is the one that applies.
    config.Set<webrtc::ExperimentalAgc>(new webrtc::ExperimentalAgc(false));
    std::unique_ptr<revue_apm> apm(new (std::nothrow) revue_apm());
    if (!apm) {
        describe(error, error_size, "out of memory", 0);
        return nullptr;
    }
    apm->module.reset(webrtc::AudioProcessing::Create(config));
    if (!apm->module) {
        describe(error, error_size, "webrtc::AudioProcessing::Create failed", 0);
        return nullptr;
    }
    apm->stream = webrtc::StreamConfig(sample_rate, 1);
    apm->echo_cancellation = settings->echo_cancellation != 0;
    webrtc::ProcessingConfig processing = {{apm->stream, apm->stream, apm->stream, apm->stream}};
    int result = apm->module->Initialize(processing);
    if (result != webrtc::AudioProcessing::kNoError) {
        describe(error, error_size, "webrtc::AudioProcessing::Initialize failed", result);
        return nullptr;
    }
    webrtc::AudioProcessing &module = *apm->module;
    int steps[] = {
        module.high_pass_filter()->Enable(settings->high_pass_filter != 0),
        module.noise_suppression()->set_level(level(settings->noise_suppression_level)),
        module.noise_suppression()->Enable(settings->noise_suppression != 0),
        module.echo_cancellation()->set_suppression_level(webrtc::EchoCancellation::kModerateSuppression),
        module.echo_cancellation()->enable_drift_compensation(false),
        module.echo_cancellation()->Enable(settings->echo_cancellation != 0),
        module.gain_control()->set_mode(webrtc::GainControl::kAdaptiveDigital),
        module.gain_control()->set_target_level_dbfs(settings->gain_target_dbfs < 0 ? 0 : settings->gain_target_dbfs > 31 ? 31 : settings->gain_target_dbfs),
        module.gain_control()->set_compression_gain_db(9),
        module.gain_control()->enable_limiter(true),
        module.gain_control()->Enable(settings->gain_control != 0),
    };
    for (int step : steps) {
        if (step != webrtc::AudioProcessing::kNoError) {
            describe(error, error_size, "a processing stage refused its settings", step);
            return nullptr;
        }
    }
    return apm.release();
}

extern "C" void revue_apm_destroy(revue_apm *apm) { delete apm; }

extern "C" size_t revue_apm_frame_samples(const revue_apm *apm) { return apm->stream.num_frames(); }

extern "C" int revue_apm_analyze_far_end(revue_apm *apm, const float *samples) {
    const float *channels[] = {samples};
    return apm->module->AnalyzeReverseStream(channels, apm->stream.num_frames(), apm->stream.sample_rate_hz(),
                                             webrtc::AudioProcessing::kMono);
}

extern "C" int revue_apm_process(revue_apm *apm, float *samples, int delay_ms) {
    // The echo canceller must be told a delay before every frame it processes.
    if (apm->echo_cancellation) {
        int result = apm->module->set_stream_delay_ms(delay_ms);
        if (result != webrtc::AudioProcessing::kNoError && result != webrtc::AudioProcessing::kBadStreamParameterWarning) return result;
    }
    const float *input[] = {samples};
    float *output[] = {samples};
    return apm->module->ProcessStream(input, apm->stream, apm->stream, output);
}

extern "C" int revue_apm_stream_has_echo(const revue_apm *apm) { return apm->module->echo_cancellation()->stream_has_echo() ? 1 : 0; }

