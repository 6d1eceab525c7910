#pragma once
// Pairs the label files of a reference folder with those of a test folder by case name: the file
// name without its extension (.nii.gz, .nii, .nrrd, .mha, .dcm), matched exactly.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace delineate::core {

struct CasePair {
  std::string name;
  // The files of this case in each folder: none (a missing pair), one, or several (ambiguous).
  std::vector<std::filesystem::path> reference;
  std::vector<std::filesystem::path> test;
};

// "a/liver_01.nii.gz" -> "liver_01"; empty when the file is not a label file we read (another
// extension, a segment table .json, a hidden file such as an atomic write's temporary).
std::string caseNameOf(const std::filesystem::path& file);

// Every case found in either folder (not recursive), sorted by name. Throws Error(Io) naming the
// folder when it cannot be listed.
std::vector<CasePair> pairCases(const std::filesystem::path& referenceFolder,
                                const std::filesystem::path& testFolder);

// The image a case's label file was drawn on, by the usual dataset layouts: a sibling folder
// imagesTr, imagesTs or images of the label's folder (Medical Segmentation Decathlon, nnU-Net)
// holding <case>.<ext> or <case>_0000.<ext> (nnU-Net's first channel), in that order; nullopt
// when none exists.
std::optional<std::filesystem::path> findCaseImage(const std::filesystem::path& labelFile);

}  // namespace delineate::core
