// opus_*_ctl are variadic, which Swift cannot call; these wrappers fix the argument types.
#ifndef REVUE_COPUS_SHIM_H
#define REVUE_COPUS_SHIM_H

#include <opus.h>

/// OPUS_GET_LAST_PACKET_DURATION: samples per channel in the last decoded packet.
static inline int revue_opus_last_packet_duration(OpusDecoder *decoder, opus_int32 *samples) {
    return opus_decoder_ctl(decoder, OPUS_GET_LAST_PACKET_DURATION(samples));
}
/// OPUS_RESET_STATE for a decoder.
static inline int revue_opus_decoder_reset(OpusDecoder *decoder) {
    return opus_decoder_ctl(decoder, OPUS_RESET_STATE);
}
/// OPUS_SET_BITRATE for an encoder.
static inline int revue_opus_encoder_set_bitrate(OpusEncoder *encoder, opus_int32 bitrate) {
    return opus_encoder_ctl(encoder, OPUS_SET_BITRATE(bitrate));
}
/// OPUS_SET_INBAND_FEC for an encoder.
static inline int revue_opus_encoder_set_inband_fec(OpusEncoder *encoder, opus_int32 enabled) {
    return opus_encoder_ctl(encoder, OPUS_SET_INBAND_FEC(enabled));
}
/// OPUS_SET_COMPLEXITY for an encoder (0–10).
static inline int revue_opus_encoder_set_complexity(OpusEncoder *encoder, opus_int32 complexity) {
    return opus_encoder_ctl(encoder, OPUS_SET_COMPLEXITY(complexity));
}

#endif
