// glibc's malloc tuning (malloc.h), which the Glibc module does not export.
#ifndef REVUE_CMALLOC_SHIM_H
#define REVUE_CMALLOC_SHIM_H

#include <malloc.h>

/// mallopt(M_MMAP_THRESHOLD, bytes).
static inline int revue_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
/// mallopt(M_TRIM_THRESHOLD, bytes).
static inline int revue_set_trim_threshold(int bytes) { return mallopt(M_TRIM_THRESHOLD, bytes); }

#endif
