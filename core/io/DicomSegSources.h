#pragma once
// The source images a DICOM SEG refers to: per slice, the SOP instance (and frame) of the
// series the labels were drawn on, its Derivation Image functional group, the patient / study /
// frame of reference to copy, and the Referenced Series Sequence. Internal to the SEG writer.
#include <cstddef>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "core/model/Volume.h"

class DcmSegmentation;
class FGDerivationImage;

namespace delineate::core {

class DicomSegSources {
 public:
  // Reads the headers of the source files of `slices` (VolumeInfo::sourceFiles, one per slice).
  // Throws Error naming `where` when the volume was not read from DICOM, and naming a source
  // file when it cannot be read, has no SOP instance UID or does not lie where its slice lies.
  DicomSegSources(const Volume& source, const std::set<std::size_t>& slices, std::string where);
  ~DicomSegSources();
  DicomSegSources(const DicomSegSources&) = delete;
  DicomSegSources& operator=(const DicomSegSources&) = delete;

  // Derivation Image functional group for a frame on slice `slice` (one of `slices`): derivation
  // code 113076 "Segmentation", one Source Image item with purpose of reference 121322.
  FGDerivationImage& derivation(std::size_t slice) const;

  // Copies patient, study and frame of reference from the first referenced source file; converts
  // its strings to UTF-8 first when `utf8` (our segment texts need it).
  void importHierarchy(DcmSegmentation& seg, bool utf8) const;

  // Referenced Series Sequence (Common Instance Reference): every referenced instance.
  void addReferencedSeries(DcmSegmentation& seg) const;

 private:
  struct Reference {
    std::string file;
    std::string sopClassUid;
    std::string sopInstanceUid;
    std::string seriesInstanceUid;
    unsigned frameNumber = 0;  // 1-based within a multi-frame source; 0 for single-frame files
  };
  std::string where_;
  std::string frameOfReferenceUid_;  // from VolumeInfo, when the files have none
  std::map<std::size_t, Reference> references_;
  std::map<std::size_t, std::unique_ptr<FGDerivationImage>> derivations_;
};

}  // namespace delineate::core
