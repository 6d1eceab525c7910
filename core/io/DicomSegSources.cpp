#include "core/io/DicomSegSources.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmfg/fgderimg.h>
#include <dcmtk/dcmseg/segdoc.h>

#include <cmath>
#include <limits>
#include <sstream>

#include "core/Error.h"
#include "core/io/DicomCondition.h"
#include "core/io/DicomHeader.h"
#include "core/io/DicomUid.h"

namespace delineate::core {

namespace {

double distance(const Vec3& a, const Vec3& b) {
  const Vec3 d{a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return std::sqrt(dot(d, d));
}

std::string describe(const Vec3& p) {
  std::ostringstream s;
  s << p[0] << "," << p[1] << "," << p[2] << " mm";
  return s.str();
}

}  // namespace

DicomSegSources::DicomSegSources(const Volume& source, const std::set<std::size_t>& slices,
                                 std::string where)
    : where_(std::move(where)), frameOfReferenceUid_(source.info().frameOfReferenceUid) {
  const ImageGeometry& g = source.geometry();
  const auto& files = source.info().sourceFiles;
  if (files.size() != g.size[2]) {
    throw Error(ErrorKind::InvalidInput, where_,
                "the source volume lists " + std::to_string(files.size()) +
                    " DICOM files for its " + std::to_string(g.size[2]) +
                    " slices: a DICOM SEG needs the source series as read from DICOM");
  }
  const double tolerance = 0.5 * g.spacing[2];
  std::map<std::string, DicomFileHeader> headers;
  for (std::size_t k : slices) {
    const std::string& file = files.at(k);
    auto it = headers.find(file);
    if (it == headers.end()) {
      it = headers.emplace(file, readDicomHeader(file)).first;
    }
    const DicomFileHeader& h = it->second;
    if (h.sopClassUid.empty() || h.sopInstanceUid.empty()) {
      throw Error(ErrorKind::InvalidInput, file,
                  "no SOP Class or SOP Instance UID, so a segmentation cannot refer to it");
    }
    Reference r{file, h.sopClassUid, h.sopInstanceUid, h.seriesInstanceUid, 0};
    const Vec3 expected = g.indexToWorld({0, 0, static_cast<double>(k)});
    if (h.frames > 1) {
      double best = std::numeric_limits<double>::max();
      for (std::size_t f = 0; f < h.frames; ++f) {
        const auto position = h.frame(f).position;
        if (position && distance(*position, expected) < best) {
          best = distance(*position, expected);
          r.frameNumber = static_cast<unsigned>(f + 1);
        }
      }
      if (best > tolerance) {
        throw Error(ErrorKind::InvalidInput, file,
                    "no frame lies at slice " + std::to_string(k) + " of the volume (" +
                        describe(expected) + ")");
      }
    } else if (const auto position = h.frame(0).position;
               position && distance(*position, expected) > tolerance) {
      throw Error(ErrorKind::InvalidInput, file,
                  "lies at " + describe(*position) + " but slice " + std::to_string(k) +
                      " of the volume lies at " + describe(expected) +
                      ": the volume's source files are not in slice order");
    }
    auto fg = std::make_unique<FGDerivationImage>();
    DerivationImageItem* item = nullptr;
    checkDicom(
        fg->addDerivationImageItem(CodeSequenceMacro("113076", "DCM", "Segmentation"), "", item),
        where_, "adding a derivation image item");
    auto sourceItem = std::make_unique<SourceImageItem>();
    checkDicom(sourceItem->getPurposeOfReferenceCode().set(
                   "121322", "DCM", "Source image for image processing operation"),
               where_, "setting the purpose of reference");
    ImageSOPInstanceReferenceMacro& ref = sourceItem->getImageSOPInstanceReference();
    checkDicom(ref.setReferencedSOPClassUID(r.sopClassUid.c_str()), file,
               "referring to its SOP class");
    checkDicom(ref.setReferencedSOPInstanceUID(r.sopInstanceUid.c_str()), file,
               "referring to its SOP instance");
    if (r.frameNumber > 0) {
      checkDicom(ref.addReferencedFrameNumber(static_cast<Uint16>(r.frameNumber)), file,
                 "referring to its frame " + std::to_string(r.frameNumber));
    }
    item->getSourceImageItems().push_back(sourceItem.release());
    derivations_.emplace(k, std::move(fg));
    references_.emplace(k, std::move(r));
  }
}

DicomSegSources::~DicomSegSources() = default;

FGDerivationImage& DicomSegSources::derivation(std::size_t slice) const {
  const auto it = derivations_.find(slice);
  if (it == derivations_.end()) {
    throw Error(ErrorKind::Internal, where_,
                "no source reference for slice " + std::to_string(slice));
  }
  return *it->second;
}

void DicomSegSources::importHierarchy(DcmSegmentation& seg, bool utf8) const {
  if (references_.empty()) {
    return;
  }
  const std::string& file = references_.begin()->second.file;
  DcmFileFormat ff;
  checkDicom(ff.loadFileUntilTag(file.c_str(), EXS_Unknown, EGL_noChange, DCM_MaxReadLength,
                                 ERM_autoDetect, DCM_PixelData),
             file, "reading the header");
  DcmDataset& ds = *ff.getDataset();
  OFString charset;
  if (utf8 && ds.findAndGetOFString(DCM_SpecificCharacterSet, charset).good() && !charset.empty() &&
      charset != "ISO_IR 192") {
    checkDicom(ds.convertToUTF8(), file, "converting its texts to UTF-8");
  }
  checkDicom(seg.importHierarchy(ds, OFTrue, OFTrue, OFTrue, OFFalse, OFTrue), file,
             "copying patient, study and frame of reference");
  if (utf8) {
    // ASCII (no character set) is a subset of UTF-8; other sets were converted above.
    checkDicom(seg.getSOPCommon().setSpecificCharacterSet("ISO_IR 192"), where_,
               "setting the character set");
  }
  OFString frameOfReference;
  if (seg.getFrameOfReference().getFrameOfReferenceUID(frameOfReference).bad() ||
      frameOfReference.empty()) {
    const std::string uid =
        isValidDicomUid(frameOfReferenceUid_) ? frameOfReferenceUid_ : newDicomUid();
    checkDicom(seg.getFrameOfReference().setFrameOfReferenceUID(uid.c_str()), where_,
               "setting the frame of reference");
  }
  OFString lossy;
  if (ds.findAndGetOFString(DCM_LossyImageCompression, lossy).good() && lossy == "01") {
    OFString ratio, method;
    ds.findAndGetOFStringArray(DCM_LossyImageCompressionRatio, ratio);
    ds.findAndGetOFStringArray(DCM_LossyImageCompressionMethod, method);
    seg.setLossyImageCompressionFlag(ratio, method, OFFalse);
  }
}

void DicomSegSources::addReferencedSeries(DcmSegmentation& seg) const {
  auto& seriesItems = seg.getCommonInstanceReference().getReferencedSeriesItems();
  std::map<std::string, IODSeriesAndInstanceReferenceMacro::ReferencedSeriesItem*> bySeries;
  std::set<std::string> instances;
  for (const auto& [slice, r] : references_) {
    if (!instances.insert(r.sopInstanceUid).second) {
      continue;  // a multi-frame source referenced for several slices
    }
    auto& series = bySeries[r.seriesInstanceUid];
    if (!series) {
      auto item = std::make_unique<IODSeriesAndInstanceReferenceMacro::ReferencedSeriesItem>();
      checkDicom(item->setSeriesInstanceUID(r.seriesInstanceUid.c_str()), r.file,
                 "referring to its series");
      series = item.get();
      seriesItems.push_back(item.release());
    }
    auto instance = std::make_unique<SOPInstanceReferenceMacro>();
    checkDicom(instance->setReferencedSOPClassUID(r.sopClassUid.c_str()), r.file,
               "referring to its SOP class");
    checkDicom(instance->setReferencedSOPInstanceUID(r.sopInstanceUid.c_str()), r.file,
               "referring to its SOP instance");
    series->getReferencedInstanceItems().push_back(instance.release());
  }
}

}  // namespace delineate::core
