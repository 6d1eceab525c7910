#include "core/io/DicomFrameKeysReader.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcitem.h>

#include <array>
#include <string>

namespace delineate::core {

namespace {

DcmItem* firstItemOf(DcmItem& group, const DcmTagKey& sequence) {
  DcmItem* item = nullptr;
  return group.findAndGetSequenceItem(sequence, item, 0).good() ? item : nullptr;
}

std::optional<double> numberOf(DcmItem* item, const DcmTagKey& tag) {
  if (item == nullptr) {
    return std::nullopt;
  }
  Float64 value = 0;
  if (item->findAndGetFloat64(tag, value).good()) {
    return value;
  }
  Uint32 u = 0;
  if (item->findAndGetUint32(tag, u).good()) {
    return static_cast<double>(u);
  }
  return std::nullopt;
}

}  // namespace

void readDiffusionGradient(DcmItem& item, DicomFrameKeys& keys) {
  std::array<double, 3> g{};
  for (unsigned long i = 0; i < 3; ++i) {
    Float64 v = 0;
    if (item.findAndGetFloat64(DCM_DiffusionGradientOrientation, v, i).bad()) {
      return;
    }
    g[i] = v;
  }
  keys.gradient = g;
}

void readFunctionalGroupKeys(DcmItem& group, DicomFrameKeys& keys) {
  DcmItem* content = firstItemOf(group, DCM_FrameContentSequence);
  if (auto v = numberOf(content, DCM_TemporalPositionIndex)) {
    keys.temporalPosition = v;
  }
  if (content != nullptr) {
    OFString when;
    // Frame Acquisition DateTime (DT): YYYYMMDDHHMMSS.FFFFFF; its time of day orders frames.
    if (content->findAndGetOFString(DCM_FrameAcquisitionDateTime, when).good() &&
        when.length() > 8) {
      if (auto s = dicomTimeSeconds(std::string(when.c_str() + 8))) {
        keys.acquisitionSeconds = s;
      }
    }
  }
  if (DcmItem* diffusion = firstItemOf(group, DCM_MRDiffusionSequence)) {
    if (auto v = numberOf(diffusion, DCM_DiffusionBValue)) {
      keys.bValue = v;
    }
    if (DcmItem* direction = firstItemOf(*diffusion, DCM_DiffusionGradientDirectionSequence)) {
      readDiffusionGradient(*direction, keys);
    }
  }
  if (auto v = numberOf(firstItemOf(group, DCM_MREchoSequence), DCM_EffectiveEchoTime)) {
    keys.echoTime = v;
  }
  if (auto v = numberOf(firstItemOf(group, DCM_CardiacSynchronizationSequence),
                        DCM_NominalCardiacTriggerDelayTime)) {
    keys.triggerTime = v;
  }
}

DicomFrameKeys mergeFrameKeys(const DicomFrameKeys& file, const DicomFrameKeys& frame) {
  DicomFrameKeys out = file;
  auto take = [](std::optional<double>& into, const std::optional<double>& from) {
    if (from) {
      into = from;
    }
  };
  take(out.temporalPosition, frame.temporalPosition);
  take(out.bValue, frame.bValue);
  if (frame.gradient) {
    out.gradient = frame.gradient;
  }
  take(out.echoTime, frame.echoTime);
  take(out.triggerTime, frame.triggerTime);
  take(out.acquisitionSeconds, frame.acquisitionSeconds);
  return out;
}

}  // namespace delineate::core
