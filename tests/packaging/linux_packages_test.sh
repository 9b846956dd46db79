#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the Linux packages once each (scripts/package-deb.sh and
# scripts/package-static.sh) and checks them as a user would meet them:
#   .deb: its .sha256, its control fields, file list, modes, md5sums and Depends (both
#     methods of scripts/deb-depends.sh agree), lintian without errors; as
#     root: dpkg -i, iospd from /usr/bin (-Rp and a real 1 s run), man -w,
#     the completion files loading in bash and zsh, dpkg -r and purge, and
#     nothing of the package left (file lists before and after compared).
#   static tarball: its file list, sha256sum -c (and a changed byte
#     failing it), ldd's "not a dynamic executable", a real run under
#     env -i with an empty LD_LIBRARY_PATH and, as root, in an empty
#     chroot (no C library, no liburing, no /proc), with the same results
#     as the dynamic build.
# Run by scripts/test.sh (run it alone the same way, from anywhere). It
# installs and removes the package iospd: it refuses to run when iospd is
# already installed. Exit 0: every check passed; 1: a check failed; 77:
# every check run passed but some were skipped (each SKIP line says why:
# not root, or the man page / completion files not in this tree yet).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
version=$(sed -n 's/^#define IOSPD_VERSION "\(.*\)"$/\1/p' "$root/include/iospd/version.h")
debver="$version-1"
arch=$(dpkg --print-architecture)
out="$root/build/pkg-test-dist"
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-pkgtest.XXXXXX")
installed=0
cleanup() {
  if [ $installed = 1 ]; then dpkg -P iospd >/dev/null 2>&1; fi
  rm -rf "$work"
}
trap cleanup EXIT
pass=0
fail=0
skips=()
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
skip() { skips+=("$*"); echo "SKIP: $*"; }
check() { # description command... : passes when the command succeeds
  local what=$1; shift
  if "$@"; then ok; else bad "$what"; fi
}
same() { # description actual expected
  if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', expected '$3'"; fi
}
is_root() { [ "$(id -u)" = 0 ]; }

rm -rf "$out"
echo "--- building the packages (version $version)"
# A clean CI machine may have no git identity: give the package one.
if [ -z "${DEBFULLNAME:-}" ] && [ -z "$(git -C "$root" config user.name 2>/dev/null)" ]; then
  export DEBFULLNAME="iospd tests" DEBEMAIL="tests@example.org"
elif [ -z "${DEBEMAIL:-}" ] && [ -z "$(git -C "$root" config user.email 2>/dev/null)" ]; then
  export DEBEMAIL="tests@example.org"
fi
"$root/scripts/package-deb.sh" "$version" "$out" || { echo "FAIL: scripts/package-deb.sh failed"; exit 1; }
# The static tarball is built from a fresh copy of the tree (the files git
# knows, nothing of build/): a new clone has no build/deps, and both package
# scripts must then fetch the cJSON source themselves. They used to end
# with status 2 and no message there (under pipefail the `ls | head` that
# looks for build/deps/cjson-* failed before the fallback ran).
fresh="$work/fresh"
mkdir -p "$fresh"
(cd "$root" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$fresh" 2>/dev/null) ||
  { echo "FAIL: could not copy the tree to $fresh"; exit 1; }
[ ! -e "$fresh/build" ] || { echo "FAIL: the fresh copy has a build/ folder"; exit 1; }
(cd "$fresh" && env -u IOSPD_CJSON_SOURCE_DIR scripts/package-static.sh "$version" "$out") ||
  { echo "FAIL: scripts/package-static.sh failed in a fresh tree"; exit 1; }
check "package-static.sh fetched the cJSON source into the fresh tree's build/deps" \
  test -f "$(ls -d "$fresh"/build/deps/cjson-*/ 2>/dev/null | head -n1)cJSON.c"
# package.sh from a tree with no build/: past the cJSON lookup to its first
# build step. cmake here is a stand-in that records the call and fails, so
# the script must stop with its own message (not status 2 in silence), and
# the mingw builds are not paid twice (Pester's packaging tests build it).
rm -rf "$fresh/build"
mkdir -p "$work/shim"
printf '#!/bin/sh\necho "$@" >>"%s/cmake.calls"\nexit 1\n' "$work" >"$work/shim/cmake"
chmod +x "$work/shim/cmake"
zip_out=$(cd "$fresh" && env -u IOSPD_CJSON_SOURCE_DIR PATH="$work/shim:$PATH" scripts/package.sh "$version" "$work/zip" 2>&1)
zip_rc=$?
same "package.sh in a fresh tree (stand-in cmake): exit status" "$zip_rc" "1"
check "package.sh in a fresh tree: says which build step failed (got: $(tail -n1 <<<"$zip_out"))" \
  grep -q "package.sh: configuring .* failed" <<<"$zip_out"
check "package.sh in a fresh tree: reached cmake with the fetched cJSON source" \
  grep -q "IOSPD_CJSON_SOURCE_DIR=$fresh/build/deps/cjson-" "$work/cmake.calls"
deb="$out/iospd_${debver}_$arch.deb"
tarname="iospd-$version-linux-x86_64"
tarball="$out/$tarname.tar.gz"
dynbin="$root/build/pkg-deb/iospd"   # the packaged binary, before strip

# What this tree can package: the man page once the CMake target iospd_man
# exists, each completion file once it is in scripts/completion/.
have_man=0
grep -q '/iospd_man\.dir$' "$root/build/pkg-deb/CMakeFiles/TargetDirectories.txt" 2>/dev/null && have_man=1
[ $have_man = 1 ] || skip "man page: this tree has no CMake target iospd_man, so neither package has one and man -w is not tested"
have_bash=0; [ -f "$root/scripts/completion/iospd.bash" ] && have_bash=1
have_zsh=0; [ -f "$root/scripts/completion/_iospd" ] && have_zsh=1
[ $have_bash = 1 ] || skip "bash completion: no scripts/completion/iospd.bash in this tree, not packaged or tested"
[ $have_zsh = 1 ] || skip "zsh completion: no scripts/completion/_iospd in this tree, not packaged or tested"

have_version=0
"$dynbin" --version >/dev/null 2>&1 && have_version=1
[ $have_version = 1 ] || skip "--version: this tree's iospd has none, so the packaged version and engines are not checked by it"
# iospd --version: the packaged version, with io_uring compiled in.
version_check() { # label binary...
  local label=$1; shift
  local v; v=$("$@" --version 2>&1)
  same "$label --version: first line" "$(head -n1 <<<"$v")" "iospd $version"
  check "$label --version: io_uring among the engines" grep -qE '^engines:.*io_uring' <<<"$v"
}

# A real 1 s read of a 1 MiB file (-c1M creates it), as XML; checks the
# numbers agree (4 KiB per read, reads done, no writes) and prints the
# engine. Usage: real_run <label> <expected engine or ""> <command...>
real_run() {
  local label=$1 want_engine=$2; shift 2
  local x="$work/run.xml"
  "$@" >"$x" 2>"$work/run.err"
  local rc=$?
  same "$label: exit code" "$rc" 0
  local rb rc_ wb size engine
  rb=$(sed -n 's/^ *<ReadBytes>\([0-9]*\)<\/ReadBytes>/\1/p' "$x" | tail -n1)
  rc_=$(sed -n 's/^ *<ReadCount>\([0-9]*\)<\/ReadCount>/\1/p' "$x" | tail -n1)
  wb=$(sed -n 's/^ *<WriteBytes>\([0-9]*\)<\/WriteBytes>/\1/p' "$x" | tail -n1)
  size=$(sed -n 's/^ *<FileSize>\([0-9]*\)<\/FileSize>/\1/p' "$x" | tail -n1)
  engine=$(sed -n 's/^ *<IoEngine>\(.*\)<\/IoEngine>/\1/p' "$x" | head -n1)
  if [ -n "$rb" ] && [ -n "$rc_" ] && [ "$rc_" -gt 0 ]; then ok; else bad "$label: no reads counted (ReadCount '$rc_')"; sed 's/^/  stderr: /' "$work/run.err" | head -5; fi
  same "$label: ReadBytes = 4096 x ReadCount" "${rb:-none}" "$(( ${rc_:-0} * 4096 ))"
  same "$label: WriteBytes" "${wb:-none}" 0
  same "$label: FileSize" "${size:-none}" 1048576
  [ -z "$want_engine" ] || same "$label: IoEngine" "${engine:-none}" "$want_engine"
  run_engine=$engine
}
# The -Rp profile text without its "Command Line:" line (which names argv[0]).
profile_text() { "$@" | grep -v '^Command Line:'; }

echo "--- the .deb: $deb"
check "the .deb was built" test -f "$deb"
check "the .deb's .sha256 verifies (sha256sum -c)" bash -c "cd '$out' && sha256sum --quiet -c '${deb##*/}.sha256'"
field() { dpkg-deb -f "$deb" "$1"; }
same "Package" "$(field Package)" iospd
same "Version" "$(field Version)" "$debver"
same "Architecture" "$(field Architecture)" "$arch"
same "Section" "$(field Section)" utils
same "Priority" "$(field Priority)" optional
check "Maintainer is 'name <address>'" grep -qE '^.+ <[^ @]+@[^ ]+>$' <<<"$(field Maintainer)"
if [ -n "${IOSPD_HOMEPAGE:-}" ]; then
  same "Homepage" "$(field Homepage)" "$IOSPD_HOMEPAGE"
else
  same "no Homepage without IOSPD_HOMEPAGE" "$(field Homepage)" ""
fi
check "Description has a synopsis and a long text" test "$(field Description | wc -l)" -ge 3
depends=$(field Depends)
echo "Depends: $depends"
for p in libc6 libcjson1 liburing2 zlib1g; do
  # Debian versions may carry an epoch and letters: zlib1g (>= 1:1.2.11.dfsg).
  check "Depends names $p (versioned): $depends" grep -qE "(^|, )$p \(>= ([0-9]+:)?[0-9][0-9A-Za-z.+~-]*\)" <<<"$depends"
done
check "Depends names only libc6, libcjson1, liburing2, zlib1g: $depends" \
  test "$(tr ',' '\n' <<<"$depends" | sed 's/^ *//; s/ .*//' | sort | tr '\n' ' ')" = "libc6 libcjson1 liburing2 zlib1g "
dpkg-deb -x "$deb" "$work/deb"
objdeps=$("$root/scripts/deb-depends.sh" "$work/deb/usr/bin/iospd" objdump 2>"$work/objdeps.err") ||
  sed 's/^/  deb-depends.sh: /' "$work/objdeps.err"
same "the objdump method finds the same packages as dpkg-shlibdeps" \
  "$(tr ',' '\n' <<<"$objdeps" | sed 's/^ *//; s/ .*//' | sort | tr '\n' ' ')" "libc6 libcjson1 liburing2 zlib1g "

# Exactly these files, root-owned, with these modes.
{
  echo ./usr/bin/iospd
  echo ./usr/share/doc/iospd/changelog.Debian.gz
  echo ./usr/share/doc/iospd/copyright
  echo ./usr/share/iospd/schema/iospd-results.schema.json
  echo ./usr/share/iospd/xml/profile.xsd
  for f in "$root"/xml/examples/*; do echo "./usr/share/iospd/xml/examples/${f##*/}"; done
  echo ./usr/share/lintian/overrides/iospd
  [ $have_man = 0 ] || echo ./usr/share/man/man1/iospd.1.gz
  [ $have_bash = 0 ] || echo ./usr/share/bash-completion/completions/iospd
  [ $have_zsh = 0 ] || echo ./usr/share/zsh/vendor-completions/_iospd
} | LC_ALL=C sort >"$work/deb-expected"
dpkg-deb -c "$deb" >"$work/deb-list"
awk '$1 !~ /^d/ { print $6 }' "$work/deb-list" | LC_ALL=C sort >"$work/deb-files"
check "the .deb holds exactly the expected files ($(wc -l <"$work/deb-expected"))" \
  diff -u "$work/deb-expected" "$work/deb-files"
same "entries not owned by root/root" "$(awk '$2 != "root/root"' "$work/deb-list" | wc -l)" 0
same "mode of /usr/bin/iospd" "$(awk '$6 == "./usr/bin/iospd" { print $1 }' "$work/deb-list")" -rwxr-xr-x
same "other files not -rw-r--r--" "$(awk '$1 !~ /^d/ && $6 != "./usr/bin/iospd" && $1 != "-rw-r--r--"' "$work/deb-list" | wc -l)" 0
same "directories not drwxr-xr-x" "$(awk '$1 ~ /^d/ && $1 != "drwxr-xr-x"' "$work/deb-list" | wc -l)" 0
# md5sums: one line per file, each matching.
dpkg-deb -e "$deb" "$work/debctl"
same "md5sums lines" "$(wc -l <"$work/debctl/md5sums")" "$(wc -l <"$work/deb-expected")"
check "md5sums match the files" bash -c "cd '$work/deb' && md5sum --quiet -c '$work/debctl/md5sums'"
# Installed-Size by dpkg-gencontrol's rule (KiB per file rounded up, 1 per
# directory, the top one too), from the archive's own listing.
size=$(awk '$1 ~ /^d/ { kib += 1; next } { kib += int(($3 + 1023) / 1024) } END { print kib }' "$work/deb-list")
same "Installed-Size (KiB)" "$(field Installed-Size)" "$size"
check "copyright is DEP-5 with the Expat (MIT) license" \
  grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' "$work/deb/usr/share/doc/iospd/copyright"
check "copyright: License: Expat" grep -qx 'License: Expat' "$work/deb/usr/share/doc/iospd/copyright"
check "changelog.Debian.gz starts with 'iospd ($debver)'" \
  grep -q "^iospd ($debver) " <(zcat "$work/deb/usr/share/doc/iospd/changelog.Debian.gz")
check "the packaged binary is stripped" bash -c "! readelf -S '$work/deb/usr/bin/iospd' | grep -q '\.symtab'"

if command -v lintian >/dev/null; then
  lintian --fail-on error --show-overrides "$deb" >"$work/lintian" 2>&1
  lrc=$?
  sed 's/^/  lintian: /' "$work/lintian"
  same "lintian exit code (--fail-on error)" "$lrc" 0
  same "lintian errors" "$(grep -c '^E:' "$work/lintian")" 0
  # Only no-manual-page may warn, and only while the tree has no man page.
  allowed='^W: iospd: no-manual-page '
  [ $have_man = 0 ] || allowed='^$'
  same "lintian warnings other than an allowed one" "$(grep '^W:' "$work/lintian" | grep -cv "$allowed")" 0
else
  bad "lintian is not installed (scripts/deps.sh installs it)"
fi

if ! is_root; then
  skip "dpkg -i / dpkg -r of the .deb and the chroot run: they need root (this test ran as uid $(id -u))"
elif [ -n "$(dpkg-query -W -f='${Status}' iospd 2>/dev/null | grep -v 'not-installed$')" ]; then
  bad "a package iospd is already installed: this test installs and removes it, so remove it first (dpkg -P iospd)"
else
  echo "--- dpkg -i, run, dpkg -r, dpkg -P"
  roots="/usr/bin /usr/share/iospd /usr/share/doc/iospd /usr/share/man/man1 /usr/share/bash-completion /usr/share/zsh /usr/share/lintian/overrides"
  snapshot() { find $roots 2>/dev/null | LC_ALL=C sort; ls -d /var/lib/dpkg/info/iospd.* 2>/dev/null; }
  snapshot >"$work/before"
  installed=1
  DEBIAN_FRONTEND=noninteractive dpkg -i "$deb" >"$work/dpkg-i" 2>&1
  drc=$?
  same "dpkg -i exit code" "$drc" 0
  [ $drc = 0 ] || sed 's/^/  dpkg: /' "$work/dpkg-i"
  same "dpkg status" "$(dpkg-query -W -f='${Status} ${Version}' iospd 2>&1)" "install ok installed $debver"
  same "dpkg --verify iospd (empty: every file as packaged)" "$(dpkg --verify iospd 2>&1)" ""
  same "iospd on PATH" "$(command -v iospd)" /usr/bin/iospd
  [ $have_version = 0 ] || version_check /usr/bin/iospd /usr/bin/iospd
  profile_text /usr/bin/iospd -Rp -b4K "$work/rp.dat" >"$work/rp"
  # DISKSPD 2.3's layout (the default level): target lines six spaces in.
  check "/usr/bin/iospd -Rp -b4K: block size 4KiB" grep -qxF '      block size: 4KiB' "$work/rp"
  check "/usr/bin/iospd -Rp: the target path" grep -qxF "    path: '$work/rp.dat'" "$work/rp"
  check "/usr/bin/iospd -Rp: io_uring compiled in" grep -q 'using io_uring' "$work/rp"
  real_run "/usr/bin/iospd real run" "" /usr/bin/iospd -c1M -d1 -W0 -b4K -Rxml "$work/deb-run.dat"
  if [ $have_man = 1 ]; then
    same "man -w iospd" "$(man -w iospd 2>&1)" /usr/share/man/man1/iospd.1.gz
    check "man iospd renders a NAME section" grep -q '^NAME' <(MANWIDTH=80 man -P cat iospd 2>/dev/null)
  fi
  if [ $have_bash = 1 ]; then
    check "bash completion file installed" test -f /usr/share/bash-completion/completions/iospd
    check "bash completion registers for iospd" \
      bash -c 'source /usr/share/bash-completion/completions/iospd && complete -p iospd >/dev/null'
  fi
  if [ $have_zsh = 1 ]; then
    check "zsh completion file installed" test -f /usr/share/zsh/vendor-completions/_iospd
    if command -v zsh >/dev/null; then
      same "zsh compinit maps iospd to _iospd" \
        "$(zsh -f -c 'fpath=(/usr/share/zsh/vendor-completions $fpath); autoload -Uz compinit && compinit -D -u; print -r -- ${_comps[iospd]}' 2>&1)" _iospd
    fi
  fi
  DEBIAN_FRONTEND=noninteractive dpkg -r iospd >"$work/dpkg-r" 2>&1
  same "dpkg -r exit code" "$?" 0
  left=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print substr($6, 2) }' | while read -r f; do [ ! -e "$f" ] || echo "$f"; done)
  same "package files left after dpkg -r" "$left" ""
  DEBIAN_FRONTEND=noninteractive dpkg -P iospd >"$work/dpkg-p" 2>&1
  same "dpkg -P exit code" "$?" 0
  installed=0
  same "dpkg status after purge (none, or not-installed)" \
    "$(dpkg-query -W -f='${Status}' iospd 2>/dev/null | grep -v 'not-installed$')" ""
  snapshot >"$work/after"
  check "file lists before dpkg -i and after dpkg -P are the same" diff -u "$work/before" "$work/after"
fi

echo "--- the static tarball: $tarball"
check "the tarball was built" test -f "$tarball"
check "the .sha256 verifies (sha256sum -c)" bash -c "cd '$out' && sha256sum --quiet -c '$tarname.tar.gz.sha256'"
same ".sha256 names the tarball" "$(awk '{ print $2 }' "$tarball.sha256")" "$tarname.tar.gz"
mkdir "$work/tampered"
cp "$tarball" "$tarball.sha256" "$work/tampered/"
printf 'x' | dd of="$work/tampered/$tarname.tar.gz" bs=1 seek=100 conv=notrunc status=none
check "a tarball with one byte changed fails sha256sum -c" \
  bash -c "cd '$work/tampered' && ! sha256sum --quiet -c '$tarname.tar.gz.sha256' >/dev/null 2>&1"
{
  for f in iospd LICENSE README THIRD-PARTY-LICENSES; do echo "$tarname/$f"; done
  [ $have_man = 0 ] || echo "$tarname/iospd.1"
  [ $have_bash = 0 ] || echo "$tarname/completion/iospd.bash"
  [ $have_zsh = 0 ] || echo "$tarname/completion/_iospd"
} | LC_ALL=C sort >"$work/tar-expected"
tar tzf "$tarball" | grep -v '/$' | LC_ALL=C sort >"$work/tar-files"
check "the tarball holds exactly the expected files" diff -u "$work/tar-expected" "$work/tar-files"
tar tzvf "$tarball" >"$work/tar-list"
same "tarball entries not owned by 0/0" "$(awk '$2 != "0/0"' "$work/tar-list" | wc -l)" 0
same "tarball directories not drwxr-xr-x" "$(awk '$1 ~ /^d/ && $1 != "drwxr-xr-x"' "$work/tar-list" | wc -l)" 0
same "tarball files other than iospd not -rw-r--r--" \
  "$(awk '$1 !~ /^d/ && $6 !~ /\/iospd$/ && $1 != "-rw-r--r--"' "$work/tar-list" | wc -l)" 0
tar xzf "$tarball" -C "$work"
sbin="$work/$tarname/iospd"
same "mode of iospd in the tarball" "$(stat -c %a "$sbin")" 755
[ $have_version = 0 ] || version_check "static iospd" "$sbin"
lddout=$(ldd "$sbin" 2>&1)
check "ldd says not a dynamic executable (it said: $lddout)" grep -q "not a dynamic executable" <<<"$lddout"
same "program headers with INTERP" "$(readelf -l "$sbin" | grep -c INTERP)" 0
if [ $have_man = 1 ]; then
  check "the tarball's man page is the .deb's" cmp -s "$work/$tarname/iospd.1" <(zcat "$work/deb/usr/share/man/man1/iospd.1.gz")
fi
# The engine the dynamic build picks here: the static one must pick the same.
real_run "dynamic build (reference)" "" "$dynbin" -c1M -d1 -W0 -b4K -Rxml "$work/ref.dat"
ref_engine=$run_engine
echo "engine on this host: $ref_engine"
real_run "static iospd under env -i, LD_LIBRARY_PATH=''" "$ref_engine" \
  env -i LD_LIBRARY_PATH= "$sbin" -c1M -d1 -W0 -b4K -Rxml "$work/static-run.dat"
same "static and dynamic -Rp profiles" "$(profile_text "$sbin" -Rp -b4K -o8 -t2 -r "$work/p.dat")" \
  "$(profile_text "$dynbin" -Rp -b4K -o8 -t2 -r "$work/p.dat")"
if is_root; then
  # Nothing but the binary and an empty /t: no C library, no liburing.so,
  # no /proc or /sys.
  mkdir -p "$work/chroot/t"
  cp "$sbin" "$work/chroot/iospd"
  same "files in the chroot" "$(cd "$work/chroot" && find . -mindepth 1 | LC_ALL=C sort | tr '\n' ' ')" "./iospd ./t "
  real_run "static iospd in an empty chroot" "$ref_engine" env -i "$(command -v chroot)" "$work/chroot" /iospd -c1M -d1 -W0 -b4K -Rxml /t/f.dat
fi

echo
[ ${#skips[@]} = 0 ] || printf '%s\n' "${skips[@]/#/SKIP: }"
echo "linux_packages_test: $pass passed, $fail failed, ${#skips[@]} skipped"
[ $fail = 0 ] || exit 1
[ ${#skips[@]} = 0 ] || exit 77
exit 0
