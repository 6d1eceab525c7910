#include "core/io/DicomSegWriter.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcvrda.h>
#include <dcmtk/dcmdata/dcvrtm.h>
#include <dcmtk/dcmfg/fgderimg.h>
#include <dcmtk/dcmfg/fgfracon.h>
#include <dcmtk/dcmfg/fgpixmsr.h>
#include <dcmtk/dcmfg/fgplanor.h>
#include <dcmtk/dcmfg/fgplanpo.h>
#include <dcmtk/dcmseg/segdoc.h>
#include <dcmtk/dcmseg/segment.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "core/Error.h"
#include "core/io/AtomicFile.h"
#include "core/io/DicomCodecs.h"
#include "core/io/DicomCondition.h"
#include "core/io/DicomSegSegment.h"
#include "core/io/DicomSegSources.h"
#include "core/io/DicomUid.h"
#include "core/io/DicomWriterAttributes.h"

namespace delineate::core {

namespace fs = std::filesystem;

namespace {

// For each label value present (0 excluded), the slices holding it, ascending.
std::map<std::uint16_t, std::vector<std::size_t>> slicesPerLabel(const LabelMap& labels,
                                                                 ProgressSink& progress) {
  const ImageGeometry& g = labels.geometry();
  const std::size_t plane = g.size[0] * g.size[1];
  std::vector<std::uint32_t> stamp(65536, 0);
  std::map<std::uint16_t, std::vector<std::size_t>> out;
  for (std::size_t k = 0; k < g.size[2]; ++k) {
    const std::uint16_t* p = labels.data() + k * plane;
    const auto mark = static_cast<std::uint32_t>(k + 1);
    for (std::size_t n = 0; n < plane; ++n) {
      const std::uint16_t v = p[n];
      if (v != 0 && stamp[v] != mark) {
        stamp[v] = mark;
        out[v].push_back(k);
      }
    }
    if (k % 16 == 0) {
      progress.throwIfCancelled();
      progress.report(static_cast<double>(k) / static_cast<double>(g.size[2]), "Finding segments");
    }
  }
  return out;
}

// A DICOM code string usable as a name: upper case, digits and '_', at most 16 characters.
std::string codeString(const std::string& text) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(std::toupper(static_cast<unsigned char>(c)));
    out += (std::isupper(u) || std::isdigit(u)) ? static_cast<char>(u) : '_';
    if (out.size() == 16) {
      break;
    }
  }
  return out.empty() ? "SEGMENTATION" : out;
}

std::unique_ptr<DcmSegmentation> createDocument(const LabelMap& labels, const DicomSegOptions& o,
                                                const std::string& where) {
  const ImageGeometry& g = labels.geometry();
  IODGeneralEquipmentModule::EquipmentInfo equipment("Delineate", "Delineate", "1",
                                                     o.softwareVersions.c_str());
  ContentIdentificationMacro identification;
  checkDicom(identification.setInstanceNumber("1"), where, "setting the instance number");
  checkDicom(identification.setContentLabel(codeString(o.contentLabel).c_str()), where,
             "setting the content label");
  const std::string description =
      o.contentDescription.empty() ? labels.name() : o.contentDescription;
  checkDicom(identification.setContentDescription(asciiOnly(description.substr(0, 64)).c_str()),
             where, "setting the content description");
  checkDicom(identification.setContentCreatorName(asciiOnly(o.contentCreatorName).c_str()), where,
             "setting the content creator's name");

  DcmSegmentation* raw = nullptr;
  checkDicom(DcmSegmentation::createBinarySegmentation(raw, static_cast<Uint16>(g.size[1]),
                                                       static_cast<Uint16>(g.size[0]), equipment,
                                                       identification),
             where, "creating the segmentation");
  std::unique_ptr<DcmSegmentation> seg(raw);

  IODGeneralSeriesModule& series = seg->getSeries();
  checkDicom(series.setSeriesInstanceUID(newDicomUid().c_str()), where, "setting the series UID");
  checkDicom(series.setSeriesNumber(std::to_string(o.seriesNumber).c_str()), where,
             "setting the series number");
  checkDicom(series.setSeriesDescription(asciiOnly(o.seriesDescription.substr(0, 64)).c_str()),
             where, "setting the series description");
  checkDicom(seg->getSOPCommon().setSOPInstanceUID(newDicomUid().c_str()), where,
             "setting the SOP instance UID");
  OFString date, time;
  DcmDate::getCurrentDate(date);
  DcmTime::getCurrentTime(time);
  series.setSeriesDate(date);
  series.setSeriesTime(time);
  seg->getGeneralImage().setContentDate(date);
  seg->getGeneralImage().setContentTime(time);

  // The standard dimension organisation of a SEG: segment, then position along the normal.
  const std::string dimensionUid = newDicomUid();
  IODMultiframeDimensionModule& dims = seg->getDimensions();
  checkDicom(dims.addDimensionIndex(DCM_ReferencedSegmentNumber, dimensionUid.c_str(),
                                    DCM_SegmentIdentificationSequence, "ReferencedSegmentNumber"),
             where, "adding the segment dimension");
  checkDicom(dims.addDimensionIndex(DCM_ImagePositionPatient, dimensionUid.c_str(),
                                    DCM_PlanePositionSequence, "ImagePositionPatient"),
             where, "adding the position dimension");

  // Shared functional groups: orientation and pixel measures of the source grid.
  const Vec3 row = g.axis(0);
  const Vec3 column = g.axis(1);
  std::unique_ptr<FGPlaneOrientationPatient> orientation(FGPlaneOrientationPatient::createMinimal(
      decimalString(row[0]).c_str(), decimalString(row[1]).c_str(), decimalString(row[2]).c_str(),
      decimalString(column[0]).c_str(), decimalString(column[1]).c_str(),
      decimalString(column[2]).c_str()));
  if (!orientation) {
    throw Error(ErrorKind::Internal, where, "cannot create the plane orientation");
  }
  checkDicom(seg->addForAllFrames(*orientation), where, "adding the plane orientation");
  FGPixelMeasures measures;
  const std::string pixelSpacing = decimalString(g.spacing[1]) + "\\" + decimalString(g.spacing[0]);
  checkDicom(measures.setPixelSpacing(pixelSpacing.c_str()), where, "setting the pixel spacing");
  checkDicom(measures.setSliceThickness(decimalString(g.spacing[2]).c_str()), where,
             "setting the slice thickness");
  checkDicom(measures.setSpacingBetweenSlices(decimalString(g.spacing[2]).c_str()), where,
             "setting the spacing between slices");
  checkDicom(seg->addForAllFrames(measures), where, "adding the pixel measures");
  return seg;
}

// Adds one segment per label present, in ascending label order; returns them in that order.
std::vector<Segment> addSegments(DcmSegmentation& seg, const LabelMap& labels,
                                 const std::map<std::uint16_t, std::vector<std::size_t>>& perLabel,
                                 const DicomSegOptions& options, const std::string& where) {
  std::vector<Segment> added;
  for (const auto& [label, slices] : perLabel) {
    const Segment* known = labels.segment(label);
    Segment fallback;
    fallback.label = label;
    fallback.name = "Segment " + std::to_string(label);
    std::unique_ptr<DcmSegment> segment =
        makeDcmSegment(known ? *known : fallback, options.algorithmName, where);
    Uint16 number = 0;
    checkDicom(seg.addSegment(segment.get(), number), where,
               "adding segment " + std::to_string(label));
    segment.release();  // owned by the segmentation now
    added.push_back(known ? *known : fallback);
  }
  return added;
}

// Texts DCMTK could only take as ASCII (it checks them before it knows the character set).
void putTexts(DcmDataset& ds, const LabelMap& labels, const std::vector<Segment>& segments,
              const DicomSegOptions& o, const std::string& where) {
  putSegmentTexts(ds, segments, where);
  const std::string description =
      o.contentDescription.empty() ? labels.name() : o.contentDescription;
  const std::pair<DcmTagKey, std::string> texts[] = {
      {DCM_SeriesDescription, o.seriesDescription},
      {DCM_ContentDescription, description},
      {DCM_ContentCreatorName, o.contentCreatorName}};
  for (const auto& [tag, text] : texts) {
    if (hasNonAscii(text)) {
      checkDicom(ds.putAndInsertString(tag, text.substr(0, 64).c_str()), where,
                 "writing a description");
    }
  }
}

void addFrames(DcmSegmentation& seg, const LabelMap& labels,
               const std::map<std::uint16_t, std::vector<std::size_t>>& perLabel,
               const DicomSegSources& sources, const std::string& where, ProgressSink& progress) {
  const ImageGeometry& g = labels.geometry();
  const std::size_t plane = g.size[0] * g.size[1];
  std::size_t total = 0;
  for (const auto& entry : perLabel) {
    total += entry.second.size();
  }
  std::vector<Uint8> frame(plane);
  FGPlanePosPatient position;
  FGFrameContent content;
  std::size_t done = 0;
  Uint16 number = 0;
  for (const auto& [label, slices] : perLabel) {
    ++number;  // segments were added in the same (ascending label) order
    for (std::size_t k : slices) {
      const std::uint16_t* p = labels.data() + k * plane;
      for (std::size_t n = 0; n < plane; ++n) {
        frame[n] = p[n] == label ? 1 : 0;
      }
      const Vec3 corner = g.indexToWorld({0, 0, static_cast<double>(k)});
      checkDicom(position.setImagePositionPatient(decimalString(corner[0]).c_str(),
                                                  decimalString(corner[1]).c_str(),
                                                  decimalString(corner[2]).c_str()),
                 where, "setting a frame position");
      checkDicom(content.setDimensionIndexValues(number, 0), where, "setting a frame index");
      checkDicom(content.setDimensionIndexValues(static_cast<Uint32>(k + 1), 1), where,
                 "setting a frame index");
      OFVector<FGBase*> groups;
      groups.push_back(&position);
      groups.push_back(&content);
      groups.push_back(&sources.derivation(k));
      checkDicom(seg.addFrame(frame.data(), number, groups), where,
                 "adding the frame of segment " + std::to_string(label) + " on slice " +
                     std::to_string(k));
      if (++done % 32 == 0) {
        progress.throwIfCancelled();
        progress.report(static_cast<double>(done) / static_cast<double>(total), "Adding frames");
      }
    }
  }
}

}  // namespace

void writeDicomSeg(const LabelMap& labels, const Volume& source, const fs::path& out,
                   const DicomSegOptions& options, ProgressSink& progress) {
  ensureDicomCodecs();
  const std::string where = out.string();
  const ImageGeometry& g = labels.geometry();
  if (const std::string diff = g.differenceFrom(source.geometry()); !diff.empty()) {
    throw Error(ErrorKind::InvalidInput, where,
                "the label map's grid differs from the source series' grid: " + diff +
                    " (labels vs source); resample the labels onto the source grid first");
  }
  if (g.size[0] > 65535 || g.size[1] > 65535) {
    throw Error(ErrorKind::TooLarge, where, "slices wider than 65535 pixels cannot be a SEG");
  }
  SubProgress scanning(progress, 0.0, 0.15);
  const auto perLabel = slicesPerLabel(labels, scanning);
  if (perLabel.empty()) {
    throw Error(ErrorKind::InvalidInput, where,
                "the label map \"" + labels.name() + "\" has no labelled voxels to export");
  }
  bool needUtf8 = hasNonAscii(options.seriesDescription) ||
                  hasNonAscii(options.contentCreatorName) ||
                  hasNonAscii(options.contentDescription) || hasNonAscii(labels.name());
  for (const Segment& s : labels.segments()) {
    needUtf8 = needUtf8 || hasNonAscii(s.name) || hasNonAscii(s.description) ||
               hasNonAscii(s.type.meaning) || hasNonAscii(s.category.meaning) ||
               hasNonAscii(s.typeModifier.meaning);
  }

  progress.report(0.15, "Reading the source series");
  std::set<std::size_t> usedSlices;
  for (const auto& entry : perLabel) {
    usedSlices.insert(entry.second.begin(), entry.second.end());
  }
  const DicomSegSources sources(source, usedSlices, where);

  std::unique_ptr<DcmSegmentation> seg = createDocument(labels, options, where);
  sources.importHierarchy(*seg, needUtf8);
  const std::vector<Segment> segments = addSegments(*seg, labels, perLabel, options, where);
  SubProgress framing(progress, 0.2, 0.8);
  addFrames(*seg, labels, perLabel, sources, where, framing);
  sources.addReferencedSeries(*seg);

  progress.report(0.8, "Writing the segmentation");
  seg->setCheckFGOnWrite(OFFalse);  // we built the groups ourselves; checking costs minutes
  DcmFileFormat file;
  DcmDataset& ds = *file.getDataset();
  checkDicom(seg->writeDataset(ds), where, "assembling the segmentation");
  seg.reset();  // the frames now live in the dataset; free DCMTK's copy early
  putTexts(ds, labels, segments, options, where);
  checkDicom(ds.putAndInsertString(DCM_SegmentsOverlap, "NO"), where, "setting SegmentsOverlap");
  const fs::path tmp = temporarySiblingPath(out);
  const OFCondition saved = file.saveFile(tmp.c_str(), EXS_LittleEndianExplicit);
  if (saved.bad()) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw dicomError(saved, where, "writing the segmentation");
  }
  commitAtomically(tmp, out);
  progress.report(1.0, "Done");
}

}  // namespace delineate::core
