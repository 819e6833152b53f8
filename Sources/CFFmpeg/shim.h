// Swift cannot import function-like or compound macros, so the ones Revue needs from
// FFmpeg are restated here as static inline functions.
#ifndef REVUE_CFFMPEG_SHIM_H
#define REVUE_CFFMPEG_SHIM_H

#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/samplefmt.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

/// AVERROR(e): a POSIX errno as an FFmpeg error code.
static inline int revue_averror(int posix_errno) { return AVERROR(posix_errno); }
/// AVERROR_EOF.
static inline int revue_averror_eof(void) { return AVERROR_EOF; }
/// AVERROR(EAGAIN), which the send/receive codec API uses for "feed me" and "drain me".
static inline int revue_averror_eagain(void) { return AVERROR(EAGAIN); }
/// AVERROR_EXIT, what an interrupt callback makes blocking I/O return.
static inline int revue_averror_exit(void) { return AVERROR_EXIT; }
/// AV_NOPTS_VALUE.
static inline int64_t revue_nopts_value(void) { return AV_NOPTS_VALUE; }
/// AV_TIME_BASE.
static inline int revue_time_base(void) { return AV_TIME_BASE; }
/// AV_PKT_FLAG_KEY.
static inline int revue_pkt_flag_key(void) { return AV_PKT_FLAG_KEY; }
/// AV_CODEC_FLAG_GLOBAL_HEADER.
static inline int revue_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }
/// AV_CODEC_FLAG_QSCALE: a fixed quantizer (`AVFrame.quality`), as for JPEG stills.
static inline int revue_codec_flag_qscale(void) { return AV_CODEC_FLAG_QSCALE; }
/// FF_QP2LAMBDA: a quantizer to the lambda `AVFrame.quality` holds.
static inline int revue_ff_qp2lambda(void) { return FF_QP2LAMBDA; }
/// AVFMT_GLOBALHEADER.
static inline int revue_avfmt_globalheader(void) { return AVFMT_GLOBALHEADER; }
/// AVFMT_NOFILE.
static inline int revue_avfmt_nofile(void) { return AVFMT_NOFILE; }
/// AVIO_FLAG_WRITE.
static inline int revue_avio_flag_write(void) { return AVIO_FLAG_WRITE; }
/// SWS_BILINEAR and friends.
static inline int revue_sws_bilinear(void) { return SWS_BILINEAR; }
static inline int revue_sws_fast_bilinear(void) { return SWS_FAST_BILINEAR; }
static inline int revue_sws_area(void) { return SWS_AREA; }
static inline int revue_sws_bicubic(void) { return SWS_BICUBIC; }
/// AV_LOG_* levels.
static inline int revue_av_log_error(void) { return AV_LOG_ERROR; }
static inline int revue_av_log_warning(void) { return AV_LOG_WARNING; }
static inline int revue_av_log_quiet(void) { return AV_LOG_QUIET; }
/// AV_CHANNEL_LAYOUT_STEREO / MONO, which are compound literals in C.
static inline void revue_channel_layout_set_default(AVChannelLayout *layout, int channels) {
    av_channel_layout_default(layout, channels);
}
/// AVFMT_FLAG_CUSTOM_IO: the caller supplied the AVIOContext and frees it.
static inline int revue_avfmt_flag_custom_io(void) { return AVFMT_FLAG_CUSTOM_IO; }
/// av_err2str is a macro around a stack buffer; this writes into the caller's buffer.
static inline const char *revue_av_strerror(int code, char *buffer, size_t size) {
    av_strerror(code, buffer, size);
    return buffer;
}

/// A resampler from a decoder's sound to mono float at `rate`, or NULL. Free it with swr_free.
static inline SwrContext *revue_swr_to_mono(const AVCodecContext *decoder, int rate) {
    SwrContext *swr = NULL;
    AVChannelLayout mono;
    av_channel_layout_default(&mono, 1);
    if (swr_alloc_set_opts2(&swr, &mono, AV_SAMPLE_FMT_FLT, rate, &decoder->ch_layout, decoder->sample_fmt, decoder->sample_rate, 0, NULL) < 0)
        return NULL;
    if (swr_init(swr) < 0) {
        swr_free(&swr);
        return NULL;
    }
    return swr;
}

/// Converts a decoded frame (or, with NULL, what the resampler still holds) into `out`; the
/// samples written, or a negative AVERROR. swr_convert takes `const uint8_t **`, which Swift
/// cannot make from AVFrame's extended_data without a cast.
static inline int revue_swr_convert_mono(SwrContext *swr, float *out, int capacity, const AVFrame *frame) {
    uint8_t *outputs[1] = { (uint8_t *)out };
    if (!frame) return swr_convert(swr, outputs, capacity, NULL, 0);
    return swr_convert(swr, outputs, capacity, (const uint8_t **)frame->extended_data, frame->nb_samples);
}

#endif
