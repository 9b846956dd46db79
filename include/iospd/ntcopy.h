/* SPDX-License-Identifier: MIT */
/* The non-temporal copy of memory-mapped I/O with write-through (-Smw):
 * stores that bypass the CPU caches, so the data heads for the medium (DAX /
 * persistent memory) without a separate flush. Shared by both platforms. */
#ifndef IOSPD_NTCOPY_H
#define IOSPD_NTCOPY_H

#include "iospd/common.h"

/* Copies n bytes from src to dst. Where dst is 16-byte aligned (or becomes
 * so after a short head), whole 16-byte blocks go with streaming stores
 * (SSE2) and a store fence ends the copy; the rest, or everything on a CPU
 * without SSE2, is a plain memcpy. Hot path: no allocation. */
void iospd_copy_nontemporal(void* dst, const void* src, size_t n);

#endif
