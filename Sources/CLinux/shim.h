// glibc and Linux calls the Glibc module does not export, or that are variadic.
#ifndef REVUE_CLINUX_SHIM_H
#define REVUE_CLINUX_SHIM_H

#include <malloc.h>
#include <signal.h>
#include <sys/prctl.h>

/// mallopt(M_MMAP_THRESHOLD, bytes).
static inline int revue_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
/// mallopt(M_TRIM_THRESHOLD, bytes).
static inline int revue_set_trim_threshold(int bytes) { return mallopt(M_TRIM_THRESHOLD, bytes); }
/// prctl(PR_SET_PDEATHSIG, signal): the kernel sends `signal` to this process when its parent dies.
static inline int revue_set_parent_death_signal(int signal) { return prctl(PR_SET_PDEATHSIG, signal, 0, 0, 0); }

#endif
