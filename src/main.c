/* SPDX-License-Identifier: MIT */
/* iospd entry point (placeholder until the parser lands). */
#include <stdio.h>

int main(int argc, char** argv) {
  (void)argc;
  (void)argv;
  fputs("iospd: not yet\n", stderr);
  return 3;
}
