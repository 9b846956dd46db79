#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# -c on Windows over an existing file, on a small volume, under wine: a
# 16 MiB tmpfs given to wine as a drive letter. The new file is made beside
# the old one and moved over it only when complete; when both cannot fit it
# is overwritten in place (said with -v); when even that cannot fit the old
# file keeps every byte and the volume its free space. Needs root (mount).
# Usage: win_create_space_test.sh <iospd.exe>
exe=$1
if [ "$(id -u)" != 0 ]; then
  echo "not root: a 16 MiB tmpfs cannot be mounted for the full-volume cases; skipped"
  exit 77
fi
: "${WINEPREFIX:=$HOME/.wine}"
work=$(mktemp -d)
vol=$work/vol
mkdir -p "$vol"
if ! mount -t tmpfs -o size=16m iospd-wine-space "$vol" 2>"$work/mount.err"; then
  echo "cannot mount a tmpfs ($(cat "$work/mount.err")); skipped"
  rm -rf "$work"
  exit 77
fi
letter=
for l in q r s t u v w x y; do
  if [ ! -e "$WINEPREFIX/dosdevices/$l:" ]; then letter=$l; break; fi
done
cleanup() {
  [ -n "$letter" ] && rm -f "$WINEPREFIX/dosdevices/$letter:"
  umount "$vol" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
[ -n "$letter" ] || { echo "no free drive letter in $WINEPREFIX/dosdevices"; exit 1; }
ln -s "$vol" "$WINEPREFIX/dosdevices/$letter:"
drive=$(echo "$letter" | tr a-z A-Z):
cd "$work" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
used() { df -B1 --output=used "$vol" | tail -1 | tr -d ' '; }
old() { head -c $(($1 << 20)) /dev/urandom >"$vol/t.dat"; sync; sha256sum <"$vol/t.dat"; }
run() { timeout 300 wine "$exe" "$@" -d1 -W0 -b64K -v "$drive\\t.dat" >out.txt 2>err.txt; rc=$?; tr -d '\r' <err.txt >err.lf; mv err.lf err.txt; }
temps() { find "$vol" -name 't.dat.iospd-creating-*' | wc -l; }
true | wine cmd.exe /c exit >/dev/null 2>&1

# a) Room for both: made beside, moved over; the old bytes are gone.
old 6 >/dev/null
run -c8M
[ "$rc" = 0 ] && ok || { bad "a) -c8M over 6 MiB: exit $rc"; head -5 err.txt; }
[ "$(stat -c %s "$vol/t.dat")" = 8388608 ] && ok || bad "a) size $(stat -c %s "$vol/t.dat")"
# Byte 1048833 = 1048833 & 0xff = 1: the pattern, not the random old data.
[ "$(od -An -tu1 -j1048833 -N1 "$vol/t.dat" | tr -d ' ')" = 1 ] && ok || bad "a) byte 1048833 is not the pattern"
[ "$(temps)" = 0 ] && ok || bad "a) a temporary copy was left"
grep -q "overwritten in place" err.txt && bad "a) overwrote in place with room for a copy" || ok

# b) Not enough room for a side copy (12 MiB > 10 free), enough in place.
old 6 >/dev/null
run -c12M
[ "$rc" = 0 ] && ok || { bad "b) -c12M over 6 MiB: exit $rc"; head -5 err.txt; }
grep -q "^NOTE: not enough free space for a side copy of '$drive\\\\t.dat', so it is overwritten in place" err.txt &&
  ok || { bad "b) no NOTE about overwriting in place"; head -5 err.txt; }
[ "$(stat -c %s "$vol/t.dat")" = 12582912 ] && ok || bad "b) size $(stat -c %s "$vol/t.dat")"
[ "$(od -An -tu1 -j12582911 -N1 "$vol/t.dat" | tr -d ' ')" = 255 ] && ok || bad "b) last byte is not the pattern"
[ "$(temps)" = 0 ] && ok || bad "b) a temporary copy was left"

# c) Not even in place: refused before anything is touched.
want=$(old 6)
before=$(used)
run -c40M
[ "$rc" = 1 ] && ok || bad "c) -c40M on a 16 MiB volume: exit $rc, want 1"
grep -q "cannot create '$drive\\\\t.dat' with 41943040 bytes: its volume has [0-9]* bytes free beside the 6291456 the existing file holds; the existing file is as it was" err.txt &&
  ok || { bad "c) message"; head -5 err.txt; }
[ "$(sha256sum <"$vol/t.dat")" = "$want" ] && ok || bad "c) the old file changed"
[ "$(used)" = "$before" ] && ok || bad "c) used space $(used), was $before"
[ "$(temps)" = 0 ] && ok || bad "c) a temporary copy was left"

# d) No old file and no room: nothing is created.
rm -f "$vol/t.dat"
run -c20M
[ "$rc" = 1 ] && ok || bad "d) -c20M on a 16 MiB volume: exit $rc, want 1"
grep -q "its volume has [0-9]* bytes free; nothing was created" err.txt && ok || { bad "d) message"; head -5 err.txt; }
[ ! -e "$vol/t.dat" ] && ok || bad "d) a file was left"

echo "win_create_space_test: $pass passed, $fail failed"
[ "$fail" = 0 ]
