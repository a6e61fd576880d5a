#!/usr/bin/env bash
# Install Table Companion as a service on Raspberry Pi OS (Bookworm or later), from a checkout:
#
#   sudo systemd/install.sh
#
# Installs the system packages, enables SPI and I2C, creates the `companion` user, makes a virtual
# environment that can see the system's picamera2 and lgpio (--system-site-packages), installs
# the companion into it, writes /etc/companion/config.toml if there is none (the defaults, each
# commented with its origin: edit the pins and reader there), and enables the service.
# Running it again upgrades the companion and keeps the config. PREFIX=/opt/companion by default.
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${PREFIX:-/opt/companion}
CONFIG=/etc/companion/config.toml
PACKAGES=(python3-venv python3-pip python3-picamera2 python3-lgpio python3-spidev
          espeak-ng alsa-utils i2c-tools)

if [ "$(id -u)" -ne 0 ]; then
    echo "run as root: sudo $0" >&2
    exit 1
fi

echo "== system packages: ${PACKAGES[*]}"
apt-get update
apt-get install -y "${PACKAGES[@]}"

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

echo "== virtual environment in $PREFIX/venv"
install -d "$PREFIX"
python3 -m venv --system-site-packages "$PREFIX/venv"
"$PREFIX/venv/bin/pip" install --upgrade pip
"$PREFIX/venv/bin/pip" install "$SRC"
install -d "$PREFIX/docs"
install -m 644 "$SRC"/docs/*.md "$PREFIX/docs/"

if [ ! -f "$CONFIG" ]; then
    echo "== default config in $CONFIG"
    install -d /etc/companion
    "$PREFIX/venv/bin/python" -c \
        'from companion.config import load; print("\n".join(load([]).describe()))' > "$CONFIG"
else
    echo "== keeping $CONFIG"
fi

echo "== service"
install -m 644 "$SRC/systemd/companion.service" /etc/systemd/system/companion.service
systemctl daemon-reload
systemctl enable companion
systemctl restart companion

echo
echo "Installed. Reboot once if SPI or I2C were just enabled, then check the box with:"
echo "    $PREFIX/venv/bin/companion doctor"
echo "Logs: journalctl -u companion -f"
