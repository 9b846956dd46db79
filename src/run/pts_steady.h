/* SPDX-License-Identifier: MIT */
/* --steady-state on an ordinary run (docs/pts.md): the controller feeds
 * every measured interval of a timespan (the interval feed the time series
 * uses, interval_feed.h) to this tracker, which sums them into rounds of
 * round_ms and runs the PTS steady-state test (iospd/steady_state.h) after
 * each round; once it holds, the controller ends measuring. Controller
 * thread only. Private to src/run. */
#ifndef IOSPD_RUN_PTS_STEADY_H
#define IOSPD_RUN_PTS_STEADY_H

#include "iospd/profile.h"
#include "iospd/series.h"
#include "iospd/steady_state.h"

typedef struct iospd_ss_track_s iospd_ss_track_t;

/* interval_ms: the feed's interval (a divisor of o->round_ms, checked by
 * validation). 0, or IOSPD_ENOMEM with err set. */
int iospd_ss_track_open(iospd_ss_track_t** out, const iospd_ss_opts_t* o,
                        uint32_t timespan, uint32_t interval_ms,
                        iospd_err_t* err);
/* One interval (any phase, any timespan: only this timespan's measured
 * ones count). Returns true at the interval that makes the test hold. */
bool iospd_ss_track_interval(iospd_ss_track_t* t, const iospd_interval_t* iv);
/* The verdict (a new copy, NULL when out of memory). */
iospd_ss_result_t* iospd_ss_track_result(const iospd_ss_track_t* t,
                                         bool interrupted);
void iospd_ss_track_close(iospd_ss_track_t* t);

#endif
