#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# DISKSPD 2.3 golden profiles (issue #25): every real 2.3 sample in
# tests/data/diskspd23-profiles (Pnn.cmd, .rc, .xml, .txt, .err; see
# tests/data/README.md) run through iospd --diskspd=2.3 -Rpxml and -Rptext:
# the same exit code, the XML byte for byte, the text with only our program
# name (and, on Linux, the engine lines docs/compat-differences.md lists),
# DISKSPD's WARNING lines, and for refused lines an error naming the switch.
# On Linux -Sy/-SY are refused (BypassIO is Windows-only); under wine they
# are checked as DISKSPD prints them. At --diskspd=2.2 each line with a 2.3
# switch is refused, saying so.
# Usage: profiles23_test.sh <iospd binary> <source dir> [--wine]
set -uo pipefail
exe=$1
src=$2
wine=0
[ "${3:-}" = --wine ] && wine=1
data="$src/tests/data/diskspd23-profiles"
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-p23.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

iospd() { # stdout -> $work/out, stderr -> $work/err, sets rc
  if [ $wine = 1 ]; then
    wine "$exe" "$@" >"$work/out" 2>"$work/err"
  else
    "$exe" "$@" >"$work/out" 2>"$work/err"
  fi
  rc=$?
  sed -i 's/\r$//' "$work/out" "$work/err"
}

# DISKSPD's WARNING lines of a sample (its .err holds both runs' stderr).
want_warnings() {
  if [ -f "$1" ]; then grep '^WARNING' "$1" | sort -u; fi
}

count=0
for cmdf in "$data"/P*.cmd; do
  [ -e "$cmdf" ] || { bad "no samples in $data"; break; }
  n=$(basename "$cmdf" .cmd)
  count=$((count + 1))
  read -r -a args <"$cmdf"
  want_rc=$(tr -d '\r\n' <"$data/$n.rc")
  line="${args[*]}"
  bypass=0
  case " $line " in *" -S"*[yY]*) bypass=1 ;; esac

  for fmt in xml text; do
    iospd "-Rp$fmt" --diskspd=2.3 "${args[@]}"
    if [ $wine = 0 ] && [ $bypass = 1 ]; then
      # Linux: BypassIO is refused before anything else is checked.
      if [ "$rc" = 3 ] && grep -q "exists only on Windows; on Linux -Su already bypasses the page cache" "$work/err" &&
        grep -qE -- "'-S[a-zA-Z]*[yY]'" "$work/err"; then ok; else
        bad "$n -Rp$fmt ($line) on Linux: exit $rc, want 3 with the BypassIO refusal; stderr: $(head -2 "$work/err")"
      fi
      [ -s "$work/out" ] && bad "$n -Rp$fmt: refused, yet printed something"
      continue
    fi
    if [ "$rc" != "$want_rc" ]; then
      bad "$n -Rp$fmt ($line): exit $rc, want $want_rc; stderr: $(head -3 "$work/err")"
      continue
    fi
    if [ "$rc" != 0 ]; then
      # A refusal: an error line naming the BypassIO letter DISKSPD names.
      sw=$(grep -oE -- '-S[a-zA-Z]*[yY]' "$cmdf" | head -1)
      case "$sw" in *Y*) sw=-SY ;; ?*) sw=-Sy ;; esac
      if grep -q '^iospd: error: ' "$work/err" && grep -qF -- "${sw:--}" "$work/err"; then ok; else
        bad "$n -Rp$fmt ($line): the error does not name ${sw:-the switch}: $(cat "$work/err")"
      fi
      case "$(cat "$data/$n.err")" in
        *"write operations"*) grep -q "cannot be used with writes (-w[1-9]" "$work/err" && ok ||
          bad "$n: the error does not say BypassIO refuses writes: $(cat "$work/err")" ;;
        *"requires unbuffered"*) grep -q "needs unbuffered I/O" "$work/err" && ok ||
          bad "$n: the error does not say BypassIO needs unbuffered I/O: $(cat "$work/err")" ;;
      esac
      [ -s "$work/out" ] && bad "$n -Rp$fmt: refused, yet printed something"
      continue
    fi
    got_w=$(grep '^WARNING' "$work/err" | sort -u)
    if [ "$got_w" = "$(want_warnings "$data/$n.err")" ]; then ok; else
      bad "$n -Rp$fmt: DISKSPD's warnings differ: got '$got_w', want '$(want_warnings "$data/$n.err")'"
    fi
    if [ $fmt = xml ]; then
      cp "$data/$n.xml" "$work/want"
      sed -i 's/\r$//' "$work/want"
    else
      sed 's/\r$//' "$data/$n.txt" >"$work/want"
      sed -i "1,3s#^Command Line: [^ ]* -Rptext --diskspd=2.3 #Command Line: diskspd.exe -Rptext #" "$work/out"
      if [ $wine = 0 ]; then
        # On Linux the ring is io_uring and iospd names the engine each
        # target would use instead of DISKSPD's I/O Completion Ports line.
        sed -i 's/^    using IoRing (/    using io_uring (/; /^      using I\/O Completion Ports$/d' "$work/want"
        sed -i '/^      using io_uring, /d; /^      using the psync/d; /^      using libaio/d; /^      using threads/d; /^      using psync/d' "$work/out"
      fi
    fi
    if diff -u "$work/want" "$work/out" >"$work/diff"; then ok; else
      bad "$n -Rp$fmt ($line) differs from DISKSPD 2.3's"
      head -20 "$work/diff"
    fi
  done

  # At 2.2 a line with a 2.3 switch is refused, naming it as 2.3's.
  if grep -qE -- '(^| )-(u|oc|bs|a[csPpeEu]|ag[0-9]+,[0-9]+-|S[a-z]*[yY])' "$cmdf"; then
    iospd -Rpxml --diskspd=2.2 "${args[@]}"
    if [ "$rc" = 3 ] && grep -q "is a DISKSPD 2.3 switch; add --diskspd=2.3" "$work/err"; then ok; else
      bad "$n at --diskspd=2.2 ($line): exit $rc; stderr: $(head -2 "$work/err")"
    fi
  fi
done
[ "$count" -ge 16 ] || bad "only $count samples found in $data"

# The "Input parameters" of real 2.3 runs (Rnn.txt: the head of
# diskspd-2.3-samples/results/NN-*.txt up to "System information") against
# -Rptext of the same command line.
rcount=0
for cmdf in "$data"/R*.cmd; do
  [ -e "$cmdf" ] || break
  n=$(basename "$cmdf" .cmd)
  rcount=$((rcount + 1))
  read -r -a args <"$cmdf"
  iospd -Rptext --diskspd=2.3 "${args[@]}"
  has_x=0
  for a in "${args[@]}"; do [ "$a" = -x ] && has_x=1; done
  if [ $wine = 0 ] && [ $has_x = 1 ]; then
    # -x (completion routines) is Windows-only.
    [ "$rc" = 3 ] && grep -q "'-x': -x (completion routines) exists only on Windows" "$work/err" && ok ||
      bad "$n (${args[*]}) on Linux: exit $rc, want the -x refusal"
    continue
  fi
  if [ "$rc" != 0 ]; then bad "$n -Rptext (${args[*]}): exit $rc; $(head -2 "$work/err")"; continue; fi
  sed 's/\r$//; 1,3s/^Command Line: .*/Command Line: */' "$data/$n.txt" >"$work/want"
  sed -i '1,3s/^Command Line: .*/Command Line: */' "$work/out"
  if [ $wine = 0 ]; then
    sed -i '/^      using I\/O Completion Ports$/d' "$work/want"
    sed -i '/^      using io_uring, /d; /^      using the psync/d; /^      using libaio/d; /^      using threads/d; /^      using psync/d' "$work/out"
  fi
  if diff -u "$work/want" "$work/out" >"$work/diff"; then ok; else
    bad "$n -Rptext (${args[*]}) differs from the input parameters of DISKSPD 2.3's run"
    head -20 "$work/diff"
  fi
done
[ "$rcount" -ge 20 ] || bad "only $rcount results samples (R*.cmd) found in $data"

# xml/examples/nvme-ioring.xml is the 2.3 command line its comment names.
ex="$src/xml/examples/nvme-ioring.xml"
[ $wine = 1 ] && ex=$(winepath -w "$ex" 2>/dev/null)
iospd --diskspd=2.3 "-X$ex" -Rpxml t.dat
cp "$work/out" "$work/want"
iospd --diskspd=2.3 -b4K -r -t4 -o32 -u -ac -Sh -L -d30 -W10 -Rpxml t.dat
if [ "$rc" = 0 ] && grep -q '<IoRing>' "$work/want" && diff -u "$work/want" "$work/out" >"$work/diff"; then ok; else
  bad "nvme-ioring.xml and its command line differ at --diskspd=2.3"; head -20 "$work/diff"
fi
echo "profiles23: $pass passed, $fail failed ($count samples)"
[ "$fail" = 0 ]
