# Sourced by the ensure-*.sh scripts that install Debian packages: as root, or through sudo.
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

# apt_install PACKAGE...: the package lists refreshed, then the packages installed without their recommends.
apt_install() {
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$@" >&2
}
