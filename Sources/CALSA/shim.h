// ALSA's capture API (libasound). Its error handler is variadic, which Swift cannot write:
// the shim installs a quiet one, so a device that will not open is said once, in Revue's own
// error, rather than as "ALSA lib pcm.c:…" lines on stderr.
#ifndef REVUE_CALSA_SHIM_H
#define REVUE_CALSA_SHIM_H

#include <alsa/asoundlib.h>
#include <string.h>

static void revue_alsa_quiet(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/// Replaces libasound's stderr printer with one that prints nothing (process-wide).
static inline void revue_alsa_silence(void) {
    snd_lib_error_set_handler(revue_alsa_quiet);
}

/// A configuration tree read from `text` (ALSA's configuration syntax), for
/// snd_pcm_open_lconf; NULL and the error when it does not parse.
static inline int revue_alsa_config_from_text(const char *text, snd_config_t **config) {
    snd_config_t *top = NULL;
    snd_input_t *input = NULL;
    int error = snd_config_top(&top);
    if (error < 0) return error;
    error = snd_input_buffer_open(&input, text, (ssize_t)strlen(text));
    if (error < 0) { snd_config_delete(top); return error; }
    error = snd_config_load(top, input);
    snd_input_close(input);
    if (error < 0) { snd_config_delete(top); return error; }
    *config = top;
    return 0;
}

#endif
