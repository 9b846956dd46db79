/* SPDX-License-Identifier: MIT */
/* Handlers of --verify, --verify-only, --verify-errors=N and
 * --verify-state=FILE (docs/verify.md). */
#include <string.h>

#include "iospd/alloc.h"
#include "opt_handlers.h"

int sw_verify_errors(ctx_t* c) {
  const char* v = c->val;
  if (*v != '=' || v[1] == '\0')
    return fail(c, "'%s': use --verify-errors=N, N the number of failures "
                   "to print (0 to 4294967295)", c->arg);
  uint64_t n = 0;
  int rc = get_uint(c, v + 1, 0, UINT32_MAX, "number of failures printed", &n);
  if (rc) return rc;
  c->pp.ext.verify_errors = (uint32_t)n;
  c->pp.ext.verify_errors_set = true;
  return 0;
}

int sw_verify_state(ctx_t* c) {
  const char* v = c->val;
  if (*v != '=' || v[1] == '\0')
    return fail(c, "'%s': use --verify-state=FILE", c->arg);
  char* path = iospd_strdup(v + 1);
  if (path == NULL) return nomem(c);
  iospd_free(c->pp.ext.verify_state);
  c->pp.ext.verify_state = path;
  return 0;
}

int sw_verify(ctx_t* c) {
  c->pp.ext.verify = true;
  return 0;
}

int sw_verify_only(ctx_t* c) {
  c->pp.ext.verify_only = true;
  return 0;
}
