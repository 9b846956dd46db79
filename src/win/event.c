/* SPDX-License-Identifier: MIT */
/* Named events (-ys/-yf/-yr/-yp/-ye) on Windows: manual-reset kernel events
 * named as the user wrote them (so "Global\\name" and "Local\\name" work as
 * in DISKSPD). An event lives while some process holds a handle to it, so
 * a killed run cannot leave one set: nothing is ever stale here. */
#include "iospd/alloc.h"
#include "win/internal.h"

struct iospd_plat_event_s {
  HANDLE h;
};

int iospd_plat_event_open(const char* name, bool create,
                          iospd_plat_event_t** ev, iospd_err_t* err) {
  *ev = NULL;
  if (name == NULL || name[0] == '\0')
    return iospd_err_set(err, IOSPD_EINVAL, "an event needs a name");
  WCHAR* w = iospd_win_utf8_to_wide(name);
  if (w == NULL)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "event name '%s' is not valid UTF-8", name);
  /* Ask only for what set and wait need, when creating too: CreateEventW
   * would ask an existing event for all access, which an event another
   * account made (a Global\name one from a service) may refuse. */
  const DWORD access = EVENT_MODIFY_STATE | SYNCHRONIZE;
  HANDLE h = create ? CreateEventExW(NULL, w, CREATE_EVENT_MANUAL_RESET, access)
                    : OpenEventW(access, FALSE, w);
  DWORD e = h == NULL ? GetLastError() : ERROR_SUCCESS;
  iospd_free(w);
  if (h == NULL) {
    if (e == ERROR_FILE_NOT_FOUND)
      return iospd_err_set_os(err, IOSPD_ENOENT, (int64_t)e,
                              "there is no event named '%s' (no process "
                              "holds it open)",
                              name);
    if (e == ERROR_INVALID_HANDLE)
      return iospd_err_set_os(err, IOSPD_EINVAL, (int64_t)e,
                              "the name '%s' belongs to another kind of "
                              "object (not an event); choose another name",
                              name);
    return iospd_win_err(err, e, "cannot %s the event '%s'",
                         create ? "create or open" : "open", name);
  }
  iospd_plat_event_t* ev1 = iospd_calloc(1, sizeof *ev1);
  if (ev1 == NULL) {
    CloseHandle(h);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  }
  ev1->h = h;
  *ev = ev1;
  return 0;
}

bool iospd_plat_event_was_stale(const iospd_plat_event_t* ev) {
  (void)ev;
  return false;
}

int iospd_plat_event_set(iospd_plat_event_t* ev, iospd_err_t* err) {
  if (!SetEvent(ev->h))
    return iospd_win_err(err, GetLastError(), "cannot set an event");
  return 0;
}

int iospd_plat_event_wait(iospd_plat_event_t* ev, uint32_t timeout_ms) {
  DWORD r = WaitForSingleObject(
      ev->h, timeout_ms == UINT32_MAX ? INFINITE : (DWORD)timeout_ms);
  if (r == WAIT_OBJECT_0) return 1;
  if (r == WAIT_TIMEOUT) return 0;
  return iospd_win_translate(GetLastError());
}

void iospd_plat_event_close(iospd_plat_event_t* ev) {
  if (ev == NULL) return;
  CloseHandle(ev->h);
  iospd_free(ev);
}
