#include "core/upload/StudyCases.h"

#include <algorithm>
#include <map>
#include <string>

#include "core/Error.h"
#include "core/io/DicomSegReader.h"

namespace delineate::core::upload {

namespace {

constexpr const char* kSegmentationStorage = "1.2.840.10008.5.1.4.1.1.66.4";

struct SegFile {
  std::string file;
  std::string study;
  std::string frameOfReference;
  std::vector<std::string> referenced;
};

// The image series `seg` was drawn on, or null.
const DicomSeries* sourceOf(const SegFile& seg, const std::vector<const DicomSeries*>& all) {
  for (const std::string& uid : seg.referenced) {
    for (const DicomSeries* s : all) {
      if (!isSegSeries(*s) && s->seriesInstanceUid == uid) {
        return s;
      }
    }
  }
  if (!seg.referenced.empty() || seg.frameOfReference.empty()) {
    return nullptr;
  }
  const DicomSeries* only = nullptr;
  for (const DicomSeries* s : all) {
    if (!isSegSeries(*s) && s->studyInstanceUid == seg.study &&
        s->frameOfReferenceUid == seg.frameOfReference) {
      if (only != nullptr) {
        return nullptr;  // two candidates: not a guess we make
      }
      only = s;
    }
  }
  return only;
}

}  // namespace

bool isSegSeries(const DicomSeries& series) {
  return series.modality == "SEG" ||
         (series.modality.empty() && series.sopClassUid == kSegmentationStorage);
}

std::vector<DatasetCase> casesFromSeries(const DicomScanResult& scan,
                                         const std::vector<std::size_t>& picked,
                                         ProgressSink& progress) {
  const std::vector<const DicomSeries*> all = scan.allSeries();
  std::vector<SegFile> segs;
  std::size_t segFiles = 0;
  for (const DicomSeries* s : all) {
    segFiles += isSegSeries(*s) ? s->files.size() : 0;
  }
  for (const DicomSeries* s : all) {
    if (!isSegSeries(*s)) {
      continue;
    }
    for (const std::string& file : s->files) {
      progress.throwIfCancelled();
      progress.report(static_cast<double>(segs.size()) / static_cast<double>(segFiles),
                      "reading the segmentations' headers");
      const DicomSegSummary summary = readDicomSegSummary(file);
      segs.push_back(
          {file, summary.studyInstanceUid.empty() ? s->studyInstanceUid : summary.studyInstanceUid,
           summary.frameOfReferenceUid.empty() ? s->frameOfReferenceUid
                                               : summary.frameOfReferenceUid,
           summary.referencedSeriesUids});
    }
  }

  std::vector<const DicomSeries*> images;  // in the order picked, once each
  auto add = [&images](const DicomSeries* s) {
    if (std::find(images.begin(), images.end(), s) == images.end()) {
      images.push_back(s);
    }
  };
  for (std::size_t index : picked) {
    if (index >= all.size()) {
      throw Error(ErrorKind::InvalidInput, "series " + std::to_string(index + 1),
                  "not in the list (" + std::to_string(all.size()) + " series)");
    }
    const DicomSeries* s = all[index];
    if (!isSegSeries(*s)) {
      add(s);
      continue;
    }
    for (const SegFile& seg : segs) {
      if (std::find(s->files.begin(), s->files.end(), seg.file) == s->files.end()) {
        continue;
      }
      const DicomSeries* source = sourceOf(seg, all);
      if (source == nullptr) {
        throw Error(ErrorKind::InvalidInput, seg.file,
                    "the segmentation refers to no image series that was scanned with it");
      }
      add(source);
    }
  }

  std::vector<DatasetCase> out;
  for (const DicomSeries* s : images) {
    DatasetCase c;
    c.image = s->files.front();
    c.series = *s;
    for (const SegFile& seg : segs) {
      if (sourceOf(seg, all) == s) {
        c.labels.emplace_back(seg.file);
      }
    }
    out.push_back(std::move(c));
  }
  progress.report(1, "cases found");
  return out;
}

}  // namespace delineate::core::upload
