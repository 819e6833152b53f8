// FreeType draws the name labels and initials. Its headers are included through macros
// (FT_FREETYPE_H), and its load flags are macros, so both are restated here.
#ifndef REVUE_CFREETYPE_SHIM_H
#define REVUE_CFREETYPE_SHIM_H

#include <ft2build.h>
#include FT_FREETYPE_H

static inline FT_Int32 revue_ft_load_render(void) { return FT_LOAD_RENDER; }
static inline FT_Int32 revue_ft_load_default(void) { return FT_LOAD_DEFAULT; }
static inline FT_Int32 revue_ft_load_target_light(void) { return FT_LOAD_TARGET_LIGHT; }
static inline int revue_ft_kerning_default(void) { return FT_KERNING_DEFAULT; }
/// FT_HAS_KERNING(face).
static inline int revue_ft_has_kerning(FT_Face face) { return FT_HAS_KERNING(face) ? 1 : 0; }

#endif
