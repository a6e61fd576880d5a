#!/usr/bin/env bash
# Install Table Companion as a service on Raspberry Pi OS (Bookworm or later), from a checkout:
#
#   sudo systemd/install.sh
#
# Installs the system packages, enables SPI and I2C, creates the `companion` user, makes a virtual
# environment that can see the system's picamera2, lgpio and numpy (--system-site-packages),
# installs the companion into it, writes /etc/companion/config.toml if there is none (the
# defaults, each commented with its origin: edit the pins and reader there), and enables the
# service. Running it again upgrades the companion and keeps the config.
#
# The camera survives the install: picamera2 comes from apt, built against the system's numpy.
# A second numpy in the venv (pip's newest OpenCV wheel wants numpy >= 2) breaks it with
# "numpy.dtype size changed". So pip installs under a constraint pinning numpy to the system's
# version ($PREFIX/constraints.txt): it keeps the system numpy and picks the newest OpenCV wheel
# that works with it (opencv-python-headless 4.11 with Bookworm's numpy 1.24).
#
# 32-bit Raspberry Pi OS (armhf) has no OpenCV or ONNX Runtime wheel on PyPI: there OpenCV comes
# from apt (python3-opencv, built for the system's numpy), pip installs none (pyproject leaves
# opencv-python-headless and onnxruntime out on 32-bit ARM) and the reader runs on OpenCV's dnn,
# so the install compiles nothing.
#
# picamera2 and lgpio come from Raspberry Pi's own archive: on a plain Debian, where apt has no
# such package, the installer says what it skipped (no camera, no GPIO) and goes on.
#
# PREFIX=/opt/companion by default; DESTDIR (empty by default) stages every path elsewhere, as
# packagers do (the tests install into a temporary folder that way).
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/opt/companion}
VENV=$DESTDIR$PREFIX/venv
CONFIG=$DESTDIR/etc/companion/config.toml
UNIT_DIR=$DESTDIR/etc/systemd/system
PACKAGES=(python3-venv python3-pip python3-numpy python3-spidev espeak-ng alsa-utils i2c-tools)
PI_PACKAGES=(python3-picamera2 python3-lgpio)  # Raspberry Pi's archive only
case "$(uname -m)" in
    armv6l|armv7l) PACKAGES+=(python3-opencv) ;;  # no wheel on PyPI for 32-bit ARM
esac

if [ "$(id -u)" -ne 0 ]; then
    echo "run as root: sudo $0" >&2
    exit 1
fi

apt-get update
skipped=()
for package in "${PI_PACKAGES[@]}"; do
    if apt-cache show "$package" >/dev/null 2>&1; then
        PACKAGES+=("$package")
    else
        skipped+=("$package")
    fi
done
echo "== system packages: ${PACKAGES[*]}"
apt-get install -y "${PACKAGES[@]}"
if [ "${#skipped[@]}" -gt 0 ]; then
    echo "!! skipped ${skipped[*]}: not in this system's apt archives (Raspberry Pi OS has them):" \
         "no Pi camera, no GPIO pins until they are installed" >&2
fi

if command -v raspi-config >/dev/null; then
    echo "== enabling SPI and I2C (takes effect after a reboot)"
    raspi-config nonint do_spi 0
    raspi-config nonint do_i2c 0
else
    echo "!! raspi-config not found: enable SPI and I2C yourself if your reader needs them" >&2
fi

echo "== user companion"
if ! id -u companion >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/companion --create-home --shell /usr/sbin/nologin \
        companion
fi
for group in gpio spi i2c video input audio; do
    if getent group "$group" >/dev/null; then
        usermod -a -G "$group" companion
    fi
done

echo "== virtual environment in $VENV (sees the system's picamera2, lgpio and numpy)"
install -d "$DESTDIR$PREFIX"
# --without-pip: venv's ensurepip would run pip from the wheel Python bundles, where none of its
# modules is compiled, only to install that pip and setuptools which are then upgraded at once
# (41 processor seconds under emulation, `make pi-check`). The system's pip (python3-pip,
# already compiled by apt) puts the newest pip in the venv instead, and the system's setuptools
# is seen through --system-site-packages. The first time, pip says it is "not uninstalling pip
# at /usr/lib/python3/dist-packages, outside environment": the system's own pip stays as it is.
python3 -m venv --system-site-packages --without-pip "$VENV"
numpy_version=$(python3 -c 'import numpy; print(numpy.__version__)')
echo "numpy==$numpy_version" > "$DESTDIR$PREFIX/constraints.txt"
if [[ $numpy_version == 1.* ]]; then
    # OpenCV 4.12 and later want numpy >= 2: without this bound pip downloads each newer wheel
    # (35 MB apiece on aarch64) only to refuse it, before it settles on 4.11
    echo "opencv-python-headless<4.12" >> "$DESTDIR$PREFIX/constraints.txt"
fi
echo "== pip and the companion in the virtual environment"
"$VENV/bin/python" -m pip install --upgrade pip
"$VENV/bin/pip" install --constraint "$DESTDIR$PREFIX/constraints.txt" "$SRC"
camera_libraries=numpy,cv2
[[ " ${skipped[*]} " == *" python3-picamera2 "* ]] || camera_libraries+=,picamera2
if ! "$VENV/bin/python" -c "import $camera_libraries"; then
    echo "!! the camera libraries do not import together: run $PREFIX/venv/bin/companion doctor" >&2
fi
install -d "$DESTDIR$PREFIX/docs"
install -m 644 "$SRC"/docs/*.md "$DESTDIR$PREFIX/docs/"

if [ ! -f "$CONFIG" ]; then
    echo "== default config in $CONFIG"
    install -d "$(dirname "$CONFIG")"
    "$VENV/bin/python" -c \
        'from companion.config import load; print("\n".join(load([]).describe()))' > "$CONFIG"
else
    echo "== keeping $CONFIG"
fi

echo "== service"
install -d "$UNIT_DIR"
install -m 644 "$SRC/systemd/companion.service" "$UNIT_DIR/companion.service"
if command -v systemctl >/dev/null; then
    systemctl daemon-reload
    systemctl enable companion
    systemctl restart companion
else
    echo "!! systemctl not found (no systemd here): the service is installed but not started" >&2
fi

echo
echo "Installed. Reboot once if SPI or I2C were just enabled, then check the box with:"
echo "    $PREFIX/venv/bin/companion doctor"
echo "Logs: journalctl -u companion -f"
