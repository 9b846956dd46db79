#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Lifetime of the -y named events on Linux (docs/compat-differences.md,
# "Named events on Linux"): an
# event's state never outlives every process that has it open, as a Windows
# named event does not. A run killed with SIGKILL while its event was set
# must not release the next waiter; events are removed from /dev/shm when
# their last iospd exits (normally, by SIGINT or after an error); an event
# lives as long as any iospd holds it, not only its creator. Event names
# carry this shell's pid, so parallel runs do not meet.
# Usage: event_lifetime_test.sh <iospd binary>
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
if [ ! -x "$exe" ]; then
  echo "no iospd binary at $exe"
  exit 1
fi
if [ ! -d /dev/shm ]; then
  echo "SKIP: no /dev/shm, where Linux keeps named semaphores"
  exit 77
fi
work=$(mktemp -d)
bg_pids=()
sfx=$$
cleanup() {
  for p in "${bg_pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  rm -f /dev/shm/sem.iospd-*_"$sfx" /dev/shm/iospd-*_"$sfx".holders
  cd /
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1

# iospd args...: stdout -> out, stderr -> err, sets rc.
iospd() {
  "$exe" "$@" >out 2>err
  rc=$?
}
# bg <name> args...: iospd in the background, output in <name>.out/.err, its
# pid in pid_<name>.
bg() {
  local name=$1
  shift
  "$exe" "$@" >"$name.out" 2>"$name.err" &
  local p=$!
  bg_pids+=("$p")
  eval "pid_$name=$p"
}
# wait_line <file> <text> <seconds>: 0 once the file holds the text.
wait_line() {
  local i
  for ((i = 0; i < $3 * 10; i++)); do
    grep -qF -- "$2" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}
# wait_exit <pid> <seconds>: the process's exit code, or 124 on time-out
# (then it is killed).
wait_exit() {
  local i
  for ((i = 0; i < $2 * 10; i++)); do
    if ! kill -0 "$1" 2>/dev/null; then
      wait "$1"
      return $?
    fi
    sleep 0.1
  done
  kill -9 "$1" 2>/dev/null
  wait "$1" 2>/dev/null
  return 124
}
# shm_left <name>: lists what /dev/shm still holds for the event <name>.
shm_left() {
  ls /dev/shm/sem.iospd-"$1" /dev/shm/iospd-"$1".holders 2>/dev/null
}

# ---- a killed run must not release the next waiter --------------------------

# A sets S when it starts measuring and is killed (no clean-up can run).
S=s_$sfx
bg A -c1M -d60 -W0 -v "-ys$S" a.dat
if wait_line A.out "starting measurements" 60; then ok; else
  bad "A never started measuring: $(head -3 A.err)"
fi
kill -9 "$pid_A"
wait "$pid_A" 2>/dev/null
if [ -e "/dev/shm/sem.iospd-$S" ]; then ok; else
  bad "precondition: SIGKILL left no /dev/shm/sem.iospd-$S to be stale"
fi

# -ye must not set what only a dead process held: there is no such event.
iospd "-ye$S"
if [ $rc = 1 ] && grep -qF "no event named '$S'" err && [ ! -s out ]; then
  ok
else
  bad "-ye of an event left by a killed run: exit $rc, stdout: $(head -1 out)," \
    "stderr: $(head -2 err)"
fi

# Leave the killed run's set semaphore in place again for the waiter.
bg A2 -c1M -d60 -W0 -v "-ys$S" a.dat
wait_line A2.out "starting measurements" 60
kill -9 "$pid_A2"
wait "$pid_A2" 2>/dev/null

# B waits on S: it must keep waiting (nobody alive set S) and say that it
# reset the stale event.
bg B -c1M -d1 -W0 -C0 -v "-yr$S" b.dat
if wait_line B.out "waiting for the start event" 60; then ok; else
  bad "B never said it waits for the start event: $(head -3 B.err)"
fi
sleep 2
if grep -q "starting warm up" B.out; then
  bad "B (-yr$S) started at once, released by the event a killed run set"
else
  ok
fi
if grep -qF "WARNING: the event '$S' (-yr) was left set" B.err; then ok; else
  bad "B did not say it reset the stale event: $(head -3 B.err)"
fi
# A live setter releases it: C sets S when it starts measuring.
bg C -c1M -d1 -W0 -C0 -v "-ys$S" c.dat
if wait_line B.out "starting warm up" 60; then ok; else
  bad "B was not released by a live -ys$S"
fi
wait_exit "$pid_B" 60
b_rc=$?
wait_exit "$pid_C" 60
c_rc=$?
if [ $b_rc = 0 ] && [ $c_rc = 0 ] && grep -q "actual test time" B.out; then
  ok
else
  bad "B/C exit $b_rc/$c_rc: $(head -2 B.err) $(head -2 C.err)"
fi
if [ -z "$(shm_left "$S")" ]; then ok; else
  bad "left in /dev/shm after B and C exited: $(shm_left "$S")"
fi

# A stale -yp event must not stop the next run at once: it runs its 2 s.
P=p_$sfx
bg K -c1M -d60 -W0 -v "-ys$P" k.dat
wait_line K.out "starting measurements" 60
kill -9 "$pid_K"
wait "$pid_K" 2>/dev/null
iospd -c1M -d2 -W0 -C0 "-yp$P" d.dat
secs=$(sed -n 's/^actual test time:[[:space:]]*\([0-9]*\)\..*/\1/p' out)
if [ $rc = 0 ] && [ "$secs" = 2 ] &&
  grep -qF "WARNING: the event '$P' (-yp) was left set" err; then
  ok
else
  bad "-yp on a stale event: exit $rc, actual test time '$secs' s" \
    "(expected 2), stderr: $(head -2 err)"
fi

# ---- a set from a live process still counts -----------------------------------

# E is set by a live run before F's waiter opens it: F starts at once.
E=e_$sfx
bg E -c1M -d8 -W0 -C0 -v "-ys$E" e.dat
wait_line E.out "starting measurements" 60
bg F -c1M -d1 -W0 -C0 -v "-yr$E" f.dat
if wait_exit "$pid_F" 30; then ok; else
  bad "a waiter was not released by an event a live run had set"
fi
wait_exit "$pid_E" 60 >/dev/null

# ---- an event lives while any iospd holds it ---------------------------------

# G creates H and waits; I opens it too. G's Ctrl-C does not take H away
# from I: -ye still finds it and releases I.
H=h_$sfx
bg G -c1M -d1 -W0 -v "-yr$H" g.dat
wait_line G.out "waiting for the start event" 60
bg I -c1M -d1 -W0 -C0 -v "-yr$H" i.dat
wait_line I.out "waiting for the start event" 60
kill -INT "$pid_G"
wait_exit "$pid_G" 30
g_rc=$?
if [ $g_rc = 0 ] && grep -q "interrupted before the measurements began" G.out
then ok; else
  bad "G interrupted while waiting: exit $g_rc: $(head -2 G.err)"
fi
iospd "-ye$H"
if [ $rc = 1 ] && grep -qF "Set event '$H'." out; then ok; else
  bad "-ye$H after its creator exited, while I holds it: exit $rc:" \
    "$(head -2 err)"
fi
if wait_exit "$pid_I" 30 && grep -q "actual test time" I.out; then ok; else
  bad "I was not released by -ye$H"
fi
if [ -z "$(shm_left "$H")" ]; then ok; else
  bad "left in /dev/shm after G and I exited: $(shm_left "$H")"
fi

# ---- removed at exit: normal, Ctrl-C, error ------------------------------------

N1=n1_$sfx N2=n2_$sfx N3=n3_$sfx
iospd -c1M -d1 -W0 -C0 "-ys$N1" "-yf$N2" "-yp$N3" n.dat
if [ $rc = 0 ] && [ -z "$(shm_left "$N1")$(shm_left "$N2")$(shm_left "$N3")" ]
then ok; else
  bad "normal exit ($rc) left: $(shm_left "$N1") $(shm_left "$N2")" \
    "$(shm_left "$N3")"
fi

bg J -c1M -d60 -W0 -v "-ys$N1" "-yf$N2" "-yp$N3" j.dat
wait_line J.out "starting measurements" 60
kill -INT "$pid_J"
wait_exit "$pid_J" 30
j_rc=$?
if [ $j_rc = 0 ] &&
  [ -z "$(shm_left "$N1")$(shm_left "$N2")$(shm_left "$N3")" ]; then
  ok
else
  bad "Ctrl-C exit ($j_rc) left: $(shm_left "$N1") $(shm_left "$N2")" \
    "$(shm_left "$N3")"
fi

# SIGTERM is handled like Ctrl-C: exit 0, and the events are gone at once
# (the stale path after a signal that kills is covered by kill -9 above).
bg T -c1M -d60 -W0 -v "-ys$N1" "-yp$N3" t.dat
wait_line T.out "starting measurements" 60
kill -TERM "$pid_T"
wait_exit "$pid_T" 30
t_rc=$?
if [ $t_rc = 0 ] && [ -z "$(shm_left "$N1")$(shm_left "$N3")" ]; then ok; else
  bad "SIGTERM: exit $t_rc (want 0), left: $(shm_left "$N1") $(shm_left "$N3")"
fi

# The target is missing (no -c): the run fails after the events are made.
iospd -d1 -W0 "-yr$N1" "-ys$N2" missing.dat
if [ $rc = 1 ] && [ -z "$(shm_left "$N1")$(shm_left "$N2")" ]; then ok; else
  bad "error exit ($rc) left: $(shm_left "$N1") $(shm_left "$N2")"
fi

finish event_lifetime_test
