#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds a statically linked x86-64 Linux iospd (cmake -DIOSPD_STATIC=ON:
# glibc, liburing.a and cJSON compiled in) for hosts no package fits, and
# packs it with the man page, the completion files, LICENSE, the licenses
# of the code linked in, and a short README.
#
#   scripts/package-static.sh <version> <outdir>
#     -> <outdir>/iospd-<version>-linux-x86_64.tar.gz and its .sha256
#        (sha256sum format: check with sha256sum -c)
#
# The man page comes from the CMake target iospd_man and the completion
# files from scripts/completion/; whatever this tree lacks is named in a
# NOTE line. The build fails if the linker warns that a glibc function
# needs shared libraries at run time (getpwnam, getaddrinfo, dlopen...):
# docs/linux-packages.md explains why iospd must call none of them.
set -euo pipefail

usage() { echo "usage: scripts/package-static.sh <version> <outdir>   (e.g. scripts/package-static.sh 0.1.0 dist)" >&2; exit 2; }
[ $# -eq 2 ] || usage
version=$1
outdir=$2
if ! [[ "$version" =~ ^[0-9A-Za-z][0-9A-Za-z._+-]*$ ]]; then
  echo "package-static.sh: version '$version' may contain only letters, digits and . _ + - (e.g. 0.1.0)" >&2
  exit 2
fi

# <outdir> is relative to where the script was called from, not to the
# tree it changes into below.
mkdir -p "$outdir" && outdir=$(cd "$outdir" && pwd)
caller=$PWD
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# iospd reports its own version (include/iospd/version.h): say so when the
# package claims another.
src_version=$(sed -n 's/^#define IOSPD_VERSION "\(.*\)"$/\1/p' include/iospd/version.h 2>/dev/null || true)
[ -z "$src_version" ] || [ "$src_version" = "$version" ] ||
  echo "package-static.sh: NOTE: the package says $version but iospd itself reports $src_version (include/iospd/version.h)"
jobs=${IOSPD_JOBS:-2}
build="$root/build/pkg-static"
name="iospd-$version-linux-x86_64"

for tool in cmake gcc strip readelf tar gzip sha256sum; do
  command -v "$tool" >/dev/null ||
    { echo "package-static.sh: '$tool' not found (apt-get install build-essential cmake)" >&2; exit 1; }
done
case "$(gcc -dumpmachine)" in
  x86_64-*linux-gnu) ;;
  *) echo "package-static.sh: builds the x86-64 binary only, but gcc targets $(gcc -dumpmachine)" >&2; exit 1 ;;
esac
[ -f /usr/lib/x86_64-linux-gnu/liburing.a ] ||
  { echo "package-static.sh: liburing.a not found (apt-get install liburing-dev)" >&2; exit 1; }

# Debian ships no static libcjson, so cJSON.c is compiled in from Debian's
# source package, as the mingw builds do (scripts/deps.sh fetches it).
cjson_src=${IOSPD_CJSON_SOURCE_DIR:-$(ls -d "$root"/build/deps/cjson-*/ 2>/dev/null | head -n1 || true)}
[ -z "$cjson_src" ] || cjson_src=$(cd "$caller" && readlink -f "$cjson_src")
if [ -z "$cjson_src" ]; then
  cjson_src=$("$root/scripts/deps.sh" | tail -n1) ||
    { echo "package-static.sh: fetching the cJSON source failed; run scripts/deps.sh or set IOSPD_CJSON_SOURCE_DIR" >&2; exit 1; }
fi
cjson_src=${cjson_src%/}
[ -f "$cjson_src/cJSON.c" ] && [ -f "$cjson_src/LICENSE" ] ||
  { echo "package-static.sh: no cJSON.c and LICENSE in '$cjson_src'; run scripts/deps.sh or set IOSPD_CJSON_SOURCE_DIR" >&2; exit 1; }

export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
# Fortified and stack-protected as the .deb's build (PIE/RELRO do not apply
# to a -static executable).
cflags="$(dpkg-buildflags --get CFLAGS 2>/dev/null || echo -O2) $(dpkg-buildflags --get CPPFLAGS 2>/dev/null || true)"
mkdir -p "$root/build"
echo "package-static.sh: building the static iospd (Release) in $build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DIOSPD_BUILD_TESTS=OFF -DBUILD_TESTING=OFF \
  -DIOSPD_STATIC=ON -DIOSPD_IO_URING=ON -DIOSPD_CJSON_SOURCE_DIR="$cjson_src" -DCMAKE_C_FLAGS="$cflags" \
  >"$build.log" 2>&1 || { cat "$build.log" >&2; echo "package-static.sh: configuring failed" >&2; exit 1; }
rm -f "$build/iospd"   # relink, so that the log below has this link's warnings
cmake --build "$build" --target iospd -j"$jobs" >>"$build.log" 2>&1 ||
  { tail -50 "$build.log" >&2; echo "package-static.sh: building failed (log: $build.log)" >&2; exit 1; }
if grep -E "statically linked applications requires at runtime|warning: Using '" "$build.log" >&2; then
  echo "package-static.sh: a glibc function above needs glibc's shared libraries at run time even in a" \
       "static binary; iospd must not call it (docs/linux-packages.md)" >&2
  exit 1
fi
headers=$(readelf -l -d "$build/iospd")
if grep -qE 'INTERP|NEEDED' <<<"$headers"; then
  echo "package-static.sh: $build/iospd is not statically linked" >&2; exit 1
fi

man=""
if grep -q '/iospd_man\.dir$' "$build/CMakeFiles/TargetDirectories.txt" 2>/dev/null; then
  cmake --build "$build" --target iospd_man >>"$build.log" 2>&1 ||
    { tail -50 "$build.log" >&2; echo "package-static.sh: building the man page failed (log: $build.log)" >&2; exit 1; }
  [ -s "$build/iospd.1" ] || { echo "package-static.sh: target iospd_man made no $build/iospd.1" >&2; exit 1; }
  man="$build/iospd.1"
else
  echo "package-static.sh: NOTE: no man page: this tree has no CMake target iospd_man"
fi

stage=$(mktemp -d "$root/build/pkg-static-stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
dir="$stage/$name"
mkdir -p "$dir"
install -m 0755 "$build/iospd" "$dir/iospd"
strip "$dir/iospd"
[ -z "$man" ] || install -m 0644 "$man" "$dir/iospd.1"
for f in iospd.bash _iospd; do
  if [ -f "$root/scripts/completion/$f" ]; then
    install -D -m 0644 "$root/scripts/completion/$f" "$dir/completion/$f"
  else
    echo "package-static.sh: NOTE: no scripts/completion/$f: not in the tarball"
  fi
done
install -m 0644 LICENSE "$dir/LICENSE"

glibc=$(dpkg-query -W -f='${Version}' libc6-dev 2>/dev/null || echo unknown)
uring=$(dpkg-query -W -f='${Version}' liburing-dev 2>/dev/null || echo unknown)
cjson=$(basename "$cjson_src")
{
  echo "Code linked into this iospd besides its own (LICENSE)"
  echo
  echo "cJSON ($cjson, Debian's source package), MIT license:"
  echo
  cat "$cjson_src/LICENSE"
  echo
  echo "liburing (Debian package liburing-dev $uring), MIT license (Debian's copyright file follows):"
  echo
  cat /usr/share/doc/liburing-dev/copyright
  echo
  echo "GNU C Library (Debian package libc6-dev $glibc), LGPL-2.1-or-later"
  echo "(/usr/share/common-licenses/LGPL-2.1 on Debian). The LGPL lets you relink"
  echo "iospd with a changed C library: iospd's source is public (MIT), build it"
  echo "with cmake -DIOSPD_STATIC=ON (scripts/package-static.sh); the library's"
  echo "source is Debian's glibc source package $glibc (apt-get source glibc)."
} >"$dir/THIRD-PARTY-LICENSES"

{
  echo "iospd $version for Linux x86-64, statically linked"
  echo
  echo "iospd is a storage benchmark that takes DISKSPD 2.2's command line and"
  echo "writes its text and XML reports. This build carries everything it needs"
  echo "(the C library, liburing, cJSON) in one executable: it runs on any"
  echo "x86-64 Linux, whatever its distribution, with no package installed."
  echo "The io_uring engine needs a kernel that allows io_uring; elsewhere iospd"
  echo "uses its libaio, threads or psync engines."
  echo
  echo "Check the download, unpack and run:"
  echo
  echo "  sha256sum -c $name.tar.gz.sha256"
  echo "  tar xf $name.tar.gz"
  echo "  $name/iospd -b4K -r -o32 -d10 -c1G -L testfile.dat   # creates a 1 GiB testfile.dat"
  echo
  echo "Install for all users (as root):"
  echo
  echo "  install -m 0755 $name/iospd /usr/local/bin/iospd"
  [ -z "$man" ] ||
  echo "  install -D -m 0644 $name/iospd.1 /usr/local/share/man/man1/iospd.1"
  [ ! -f "$dir/completion/iospd.bash" ] ||
  echo "  install -D -m 0644 $name/completion/iospd.bash /usr/local/share/bash-completion/completions/iospd"
  [ ! -f "$dir/completion/_iospd" ] ||
  echo "  install -D -m 0644 $name/completion/_iospd /usr/local/share/zsh/site-functions/_iospd"
  echo
  [ -z "$man" ] || echo "Then man iospd shows the manual."
  echo "Help: iospd -?. On Debian and Ubuntu prefer the .deb (dpkg -i), which"
  echo "links the system's libraries and so gets their security updates."
  echo "Licenses: LICENSE (iospd, MIT), THIRD-PARTY-LICENSES (code linked in)."
} >"$dir/README"
chmod 0644 "$dir/README" "$dir/THIRD-PARTY-LICENSES"
find "$dir" -type d -exec chmod 0755 {} +   # whatever the caller's umask

mkdir -p "$outdir"
tarball="$outdir/$name.tar.gz"
# Reproducible: sorted names, no owner, the commit's time, gzip without a
# timestamp.
(cd "$stage" && tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
   --format=gnu -cf - "$name") | gzip -9n >"$tarball"
(cd "$outdir" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
echo "package-static.sh: $tarball"
echo "package-static.sh: $tarball.sha256: $(cut -d' ' -f1 "$tarball.sha256")"
