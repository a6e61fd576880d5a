#!/usr/bin/env bash
# `make pi-check`: the installer and the companion run in Raspberry Pi OS's userlands, 64-bit
# (arm64) and 32-bit (armhf), emulated on this machine by qemu-user-static through binfmt_misc.
#
# For each architecture, both at once (each mostly keeps one core busy with emulation): a Debian
# Bookworm userland with what the installer asks apt for (mmdebstrap, cached under
# $PI_CHECK_CACHE, keyed by its package list, so only the first run builds it), a fresh layer
# over it (overlayfs, or a copy where overlayfs cannot be mounted) with this checkout in /src,
# systemd/install.sh run there as root, then tools/pichecks/inside.py with the installed venv
# (numpy is the system's; OpenCV, the reader's runtime and the companion import together;
# `companion doctor`; a Last Bastion turn over HTTP on `companion run --simulate`; `companion
# dice read` on 10 photos), and here the readings compared with this machine's own. Each phase
# prints its time; the installer's log is kept with the seconds of each line.
#
# What Debian lacks and a Pi has: picamera2 and lgpio (Raspberry Pi's archive). The installer
# skips them and says so; the check stands them in with the simulated table and photo files.
# Emulation says nothing of a Pi's speed, camera or pins (docs/hardware.md).
#
# Needs root (mmdebstrap, chroot, mounts). Fails, never passes silently, where binfmt_misc
# cannot be mounted. PI_CHECK_ARCHES="arm64 armhf" by default; PI_CHECK_CACHE (default
# /var/cache/companion-pi-check) holds the userlands, pip's downloads and the logs, and a
# lock (one run at a time: PI_CHECK_WAIT, default 1800, is how many seconds a second run waits);
# PI_CHECK_BINFMT (default /proc/sys/fs/binfmt_misc) is where binfmt_misc is looked for.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${PI_CHECK_CACHE:-/var/cache/companion-pi-check}
ARCHES=${PI_CHECK_ARCHES:-arm64 armhf}
SUITE=bookworm
BINFMT=${PI_CHECK_BINFMT:-/proc/sys/fs/binfmt_misc}
SHARED=${COMPANION_SHARED:-$REPO/../shared}
PHOTOS_DIR=$SHARED/data/dice/byler-d6-train/images
PHOTO_COUNT=10
# What systemd/install.sh asks apt for, less Raspberry Pi's own packages, and the CA
# certificates pip needs: in the userland from the start, so the installer finds them there.
PACKAGES=ca-certificates,python3-venv,python3-pip,python3-numpy,python3-spidev,espeak-ng
PACKAGES+=,alsa-utils,i2c-tools
ARMHF_PACKAGES=$PACKAGES,python3-opencv  # 32-bit: OpenCV from apt (no wheel on PyPI)

# pip's words for a connection the registry dropped or never answered
DROPPED='ConnectionResetError|Connection reset by peer|Read timed out|NewConnectionError|ConnectTimeout'
say() { echo "pi-check: $*"; }
fail() { echo "pi-check: FAIL: $*" >&2; exit 1; }
TICKS=$(getconf CLK_TCK)

# A phase's clock: `mark VAR` stores the seconds and the processor time of this shell's finished
# children; `took "$VAR"` then sets TOOK to "N s (processor M s)". Under emulation nearly all
# the work is one process at a time, so the processor seconds are what the phase costs on a
# quiet machine, whatever else ran beside it.
mark() {
    local stat
    read -r -a stat < "/proc/$BASHPID/stat"
    printf -v "$1" '%s %s' "$SECONDS" "$((stat[15] + stat[16]))"
}
took() {
    local since now
    read -r -a since <<< "$1"
    mark now
    read -r -a now <<< "$now"
    TOOK="$((now[0] - since[0])) s (processor $(((now[1] - since[1]) / TICKS)) s)"
}
mark started

need_tools() {
    local missing=()
    command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
    command -v qemu-aarch64-static >/dev/null || missing+=(qemu-user-static)
    command -v update-binfmts >/dev/null || missing+=(binfmt-support)
    if [ "${#missing[@]}" -gt 0 ]; then
        say "installing ${missing[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
}

# binfmt_misc lets the kernel hand ARM programs to qemu: without it nothing below would run.
# Checked first, before anything is installed or built.
need_binfmt_mounted() {
    if [ ! -e "$BINFMT/status" ]; then
        mount -t binfmt_misc binfmt_misc "$BINFMT" 2>/dev/null ||
            fail "binfmt_misc cannot be mounted at $BINFMT (a container without that" \
                 "privilege?): ARM programs cannot run here, nothing was checked"
    fi
}

need_interpreters() {
    for interpreter in qemu-aarch64 qemu-arm; do
        update-binfmts --enable "$interpreter" 2>/dev/null || true
        grep -qx enabled "$BINFMT/$interpreter" 2>/dev/null ||
            fail "binfmt_misc has no enabled $interpreter entry: ARM programs cannot run here"
    done
}

mirror() {
    local uri
    uri=$(grep -rhoE '^(URIs:|deb) +https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list \
          /etc/apt/sources.list.d/ 2>/dev/null | grep -oE 'https?://[^ ]+' | head -1)
    echo "${uri:-http://deb.debian.org/debian}"
}

# The cached userland of an architecture: built once per package list (and bin/dpkg), then
# only layered over. mmdebstrap downloads with the host's apt, in parallel; this machine's dpkg
# unpacks the packages (mmdebstrap's chrootless mode, through bin/dpkg, which keeps every
# maintainer script chrooted in the userland), so only the packages' scripts run under
# emulation (unpacking under emulation was half of the build). The build runs
# in a mount namespace of its own where this machine's / is read-only and only the userland
# being built is writable: nothing the packages run can touch this machine. Documentation,
# manual pages and translations are left out (nothing checked reads them), apt's lists kept
# (the installer reads them).
userland() {
    local arch=$1 packages=$2 key base
    key=$( (echo "$SUITE $arch mmdebstrap chrootless apt $packages"
            cat "$REPO/tools/pichecks/bin/dpkg") | sha256sum | cut -c1-12)
    base=$CACHE/$SUITE-$arch-$key
    if [ ! -d "$base" ]; then
        local t build=$CACHE/build-$arch
        mark t
        say "building the $arch userland (mmdebstrap $SUITE, once: cached in $base)" >&2
        rm -rf --one-file-system "$build"
        install -d "$build/tmp"
        unshare --mount --propagation private bash -c "$(declare -f build_userland);"' \
            build_userland "$@"' _ "$arch" "$packages" "$build" "$(mirror)" "$SUITE" \
            "$REPO/tools/pichecks/bin" \
            > "$CACHE/$arch-build.log" 2>&1 9>&- ||
            fail "mmdebstrap $arch failed: see $CACHE/$arch-build.log"
        mv "$build/root" "$base"
        rm -rf --one-file-system "$build"
        took "$t"
        say "the $arch userland was built in $TOOK" >&2
        local stale
        for stale in "$CACHE/$SUITE-$arch-"*; do
            if [ "$stale" != "$base" ]; then
                rm -rf --one-file-system "$stale"
                say "removed $stale, built for another package list" >&2
            fi
        done
    fi
    echo "$base"
}

# Run in its own mount namespace (see userland): $build is the only writable folder left.
# mmdebstrap and apt find bin/dpkg first (PATH, and apt's Dir::Bin::dpkg, taken out again of
# the userland's apt configuration at the end).
build_userland() {
    local arch=$1 packages=$2 build=$3 mirror=$4 suite=$5 bin=$6
    mount --bind "$build" "$build"
    mount -o remount,bind,ro / || { echo "cannot make / read-only for the build"; return 1; }
    export TMPDIR=$build/tmp PATH=$bin:$PATH
    mmdebstrap --mode=chrootless --arch="$arch" --variant=apt --include="$packages" \
        --skip=cleanup/apt/lists --aptopt='Acquire::Languages "none"' \
        --aptopt="Dir::Bin::dpkg \"$bin/dpkg\"" \
        --setup-hook='mkdir -p "$1/dev" "$1/proc" && mount --bind /dev "$1/dev" &&
                      mount -t proc proc "$1/proc"' \
        --customize-hook='umount "$1/dev" "$1/proc" &&
                          sed -i "/Dir::Bin::dpkg/d" "$1/etc/apt/apt.conf.d/99mmdebstrap"' \
        "$suite" "$build/root" "$mirror"
}

mounted_under() { grep -q " $1/" /proc/mounts; }

# A run's root: a writable layer over the cached userland (overlayfs), or a copy of it where
# overlayfs cannot be mounted; left over from an earlier run, it is released and removed first.
layer() {
    local base=$1 run=$2
    if [ -d "$run" ]; then
        release "$run/root"
        rm -rf --one-file-system "$run"
    fi
    install -d "$run/root" "$run/upper" "$run/work"
    mount -t overlay overlay -o "lowerdir=$base,upperdir=$run/upper,workdir=$run/work" \
        "$run/root" 2>/dev/null || cp -a "$base/." "$run/root"
}

release() {
    local root=$1
    for point in dev/pts dev proc root/.cache/pip; do
        if mountpoint -q "$root/$point"; then umount -l "$root/$point"; fi
    done
    mounted_under "$root" && fail "$root still has mounts: left as it is"
    if mountpoint -q "$root"; then umount "$root"; fi
    return 0
}

# Each line of the command's output with the seconds since it started: the installer's phases.
timed() {
    local start=$SECONDS line
    "$@" 2>&1 | while IFS= read -r line; do printf '%4d s  %s\n' $((SECONDS - start)) "$line"; done
}

in_root() {
    chroot "$1" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive PIP_DEFAULT_TIMEOUT=180 \
        PIP_CERT=/etc/ssl/certs/ca-certificates.crt PIP_PROGRESS_BAR=off PIP_RETRIES=10 \
        PIP_COMPILE=0 PYTHONUNBUFFERED=1 "${@:2}" 9>&-
    # unbuffered: each line of the log has its own time. PIP_COMPILE=0: pip byte-compiles none
    # of what it installs (under emulation that was minutes); Python compiles what is imported
    # the first time it is. (Not PIP_NO_COMPILE=1, which pip reads as --compile.) PIP_RETRIES:
    # twice pip's 5, as the route to the index reset an emulated pip's connection 5 times in a
    # row once, under a load of 10. 9>&-: no program of the userland holds the run's lock.
}

check_arch() {
    local arch=$1 packages=$2 t base root
    mark t
    echo
    say "== $arch =="
    base=$(userland "$arch" "$packages")
    root=$CACHE/run-$arch/root
    layer "$base" "$CACHE/run-$arch"
    trap 'release "'"$root"'"' EXIT
    mount -t proc proc "$root/proc"
    # no /sys: this machine's describes its x86 processors, and ONNX Runtime's processor probe
    # (cpuinfo) crashes on it under emulation (a Pi's own /sys is right; without one it warns)
    mount --bind /dev "$root/dev"
    mount --bind /dev/pts "$root/dev/pts"
    install -d "$CACHE/pip-$arch" "$root/root/.cache/pip"
    mount --bind "$CACHE/pip-$arch" "$root/root/.cache/pip"  # wheels downloaded once
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    # this machine's local certificate authorities, which its route to the registries needs
    # (appended to the bundle: update-ca-certificates takes minutes under emulation)
    cat /usr/local/share/ca-certificates/*.crt >> "$root/etc/ssl/certs/ca-certificates.crt" \
        2>/dev/null || true
    install -d "$root/src" "$root/photos"
    git -C "$REPO" ls-files -z --cached --others --exclude-standard |
        (cd "$REPO" && tar --null -T - -cf - 2>/dev/null) | tar -xf - -C "$root/src"
    cp "${photos[@]}" "$root/photos/"
    took "$t"
    say "$(in_root "$root" uname -m) userland ready in $TOOK: Debian $(cat \
        "$root/etc/debian_version"), Python $(in_root "$root" python3 -c \
        'import platform; print(platform.python_version())')"
    say "stand-ins: no picamera2, no lgpio (Raspberry Pi's archive): the simulated table and" \
        "photo files instead of the camera, no GPIO pins"

    local i
    mark i
    say "systemd/install.sh"
    local log=$CACHE/$arch-install.log
    # Once more where the registry dropped pip's connections (seen under load: emulated TLS is
    # slow, and pip's ten retries ran out on one index page); the installer runs again as a
    # user would, over what the first run left. Any other failure fails at once.
    local attempt
    for attempt in 1 2; do
        timed in_root "$root" bash /src/systemd/install.sh > "$log" && break
        if [ "$attempt" -eq 1 ] && grep -qE "$DROPPED" "$log"; then
            mv "$log" "$log.first"
            say "the registry dropped pip's connections ($log.first): the installer runs again"
            sleep 30
            continue
        fi
        tail -40 "$log"
        fail "$arch: systemd/install.sh failed (whole log, with each line's seconds: $log)"
    done
    local steps='(==|!!)|Installing collected|Successfully installed|Building wheel|Running setup.py'
    grep -E "^ *[0-9]+ s  ($steps)" "$log" | cut -c1-150 | sed 's/^/    /'
    if grep -E 'Building wheel for (numpy|opencv|onnxruntime)' "$log"; then
        fail "$arch: pip compiled a library a Pi installs ready-made"
    fi
    grep -q '^ *[0-9]* s  !! skipped python3-picamera2 python3-lgpio' "$log" ||
        fail "$arch: the installer did not say it skipped picamera2 and lgpio"
    took "$i"
    say "installed in $TOOK"

    mark i
    local names=()
    for photo in "${photos[@]}"; do names+=("/photos/$(basename "$photo")"); done
    in_root "$root" /opt/companion/venv/bin/python /src/tools/pichecks/inside.py \
        --readings "/photos/readings.jsonl" "${names[@]}" ||
        fail "$arch: a check failed in the userland"
    compare "$root/photos/readings.jsonl" "$arch"
    took "$i"
    local checked=$TOOK
    took "$t"
    say "checked in $checked; $arch in all: $TOOK"
    release "$root"
    trap - EXIT
}

# The dice each photo shows (faces and boxes), as read here on x86 and in the userland.
compare() {
    "$REPO/.venv/bin/python" - "$1" "$x86" "$2" <<'EOF'
import json, sys
from pathlib import Path

def dice(path):
    return {Path(r["image"]).name: [(d["face"], d["box"]) for d in r["dice"]]
            for r in map(json.loads, Path(path).read_text().splitlines())}

arm, x86 = dice(sys.argv[1]), dice(sys.argv[2])
differ = sorted(name for name in x86 if arm.get(name) != x86[name])
count = sum(len(d) for d in x86.values())
if differ or arm.keys() != x86.keys():
    for name in differ:
        print(f"  {name}: x86 {x86[name]}\n  {' ' * len(name)}  {sys.argv[3]} {arm.get(name)}")
    sys.exit(f"pi-check: FAIL: {sys.argv[3]} reads {len(differ)} photos otherwise than x86")
print(f"  ok  the same {count} dice (faces and boxes) as on x86 in the {len(x86)} photos")
EOF
}

need_binfmt_mounted
[ "$(id -u)" -eq 0 ] || fail "run as root (mmdebstrap, chroot and mounts need it)"
need_tools
need_interpreters
install -d "$CACHE"
# One run at a time on a machine: runs share the cached userlands, pip's downloads, the run-*
# layers (removed and remade by each run) and the x86 readings. A second run waits for the first
# (CI starting while `make pi-check` still runs), and gives up after PI_CHECK_WAIT seconds.
exec 9> "$CACHE/lock"
if ! flock -n 9; then
    say "another pi-check holds $CACHE/lock: waiting for it (at most ${PI_CHECK_WAIT:-1800} s)"
    flock -w "${PI_CHECK_WAIT:-1800}" 9 || fail "$CACHE/lock still held: nothing was checked"
fi
mapfile -t photos < <(find "$PHOTOS_DIR" -name '*.jpg' 2>/dev/null | sort | head -"$PHOTO_COUNT")
[ "${#photos[@]}" -eq "$PHOTO_COUNT" ] ||
    fail "no $PHOTO_COUNT photos in $PHOTOS_DIR (shared/ next to the checkout, or COMPANION_SHARED)"
x86=$CACHE/x86-readings.jsonl
"$REPO/.venv/bin/companion" dice read --json --profile d6 "${photos[@]}" > "$x86" ||
    fail "the x86 readings failed (make setup first)"
say "x86 reference: $(wc -l < "$x86") photos read here"

# Both architectures at once, each line of output marked with its architecture.
pids=()
for arch in $ARCHES; do
    case $arch in
        arm64) packages=$PACKAGES ;;
        armhf) packages=$ARMHF_PACKAGES ;;
        *) fail "unknown architecture $arch (arm64 or armhf)" ;;
    esac
    check_arch "$arch" "$packages" 2>&1 | sed -u "s/^/$arch  /" &
    pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
echo
took "$started"
[ "$failed" -eq 0 ] || fail "($ARCHES) after $TOOK: see the lines above"
say "passed ($ARCHES) in $TOOK"
