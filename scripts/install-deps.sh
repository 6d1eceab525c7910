#!/usr/bin/env bash
# Installs the Debian 12 packages Delineate needs to build, run and test. Idempotent.
set -euo pipefail
pkgs=(
  build-essential cmake ninja-build ccache pkg-config git
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev libqt6openglwidgets6 qt6-svg-dev qt6-charts-dev
  qtkeychain-qt6-dev gnome-keyring dbus
  xdg-desktop-portal xdg-desktop-portal-gtk dconf-service dconf-gsettings-backend
  gsettings-desktop-schemas libglib2.0-bin
  libvtk9-dev libinsighttoolkit5-dev libdcmtk-dev libcpprest-dev libssl-dev
  nlohmann-json3-dev libdeflate-dev libisal-dev zlib1g-dev libzstd-dev liblz4-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  xvfb xauth libgl1-mesa-dri mesa-utils
  dcmtk dicom3tools dcm2niix plastimatch poppler-utils orthanc orthanc-dicomweb
  libgdcm-tools python3 python3-numpy python3-pydicom python3-nibabel
  mricron-data
  dpkg-dev file appstream desktop-file-utils shared-mime-info
  clang libclang-rt-14-dev
)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#pkgs[@]} packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
