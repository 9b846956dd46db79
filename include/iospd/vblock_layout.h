/* SPDX-License-Identifier: MIT */
/* The sizes of a --verify block's layout (the header and the sector stamps
 * described in iospd/verify.h), on the base layer so that the profile's
 * validation can refuse a block size too small for the header without
 * depending on the verify module. */
#ifndef IOSPD_VBLOCK_LAYOUT_H
#define IOSPD_VBLOCK_LAYOUT_H

#define IOSPD_VHDR_SIZE 64u
#define IOSPD_VSECTOR 512u
#define IOSPD_VMIN_BLOCK IOSPD_VHDR_SIZE

#endif
