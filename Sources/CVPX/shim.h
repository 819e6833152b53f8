// libvpx initialises codecs through macros that pass the ABI version; Swift sees these wrappers.
#ifndef REVUE_CVPX_SHIM_H
#define REVUE_CVPX_SHIM_H

#include <vpx/vpx_decoder.h>
#include <vpx/vpx_encoder.h>
#include <vpx/vp8dx.h>
#include <vpx/vp8cx.h>

/// vpx_codec_dec_init(ctx, iface, cfg, flags).
static inline vpx_codec_err_t revue_vpx_codec_dec_init(vpx_codec_ctx_t *ctx, vpx_codec_iface_t *iface,
                                                        const vpx_codec_dec_cfg_t *cfg, vpx_codec_flags_t flags) {
    return vpx_codec_dec_init(ctx, iface, cfg, flags);
}
/// vpx_codec_enc_init(ctx, iface, cfg, flags).
static inline vpx_codec_err_t revue_vpx_codec_enc_init(vpx_codec_ctx_t *ctx, vpx_codec_iface_t *iface,
                                                        const vpx_codec_enc_cfg_t *cfg, vpx_codec_flags_t flags) {
    return vpx_codec_enc_init(ctx, iface, cfg, flags);
}
/// vpx_codec_control(ctx, id, value) for the integer controls (VP8E_SET_CPUUSED and friends):
/// the macro pastes the id into a function name, which Swift cannot do.
static inline vpx_codec_err_t revue_vpx_codec_control_int(vpx_codec_ctx_t *ctx, int id, int value) {
    return vpx_codec_control_(ctx, id, value);
}

#endif
