#pragma once
// Small synthetic mammography studies for the reading-view tests, written as MG DICOM: each view
// is a breast half-ellipse against its chest wall (stored on the right edge for a right breast,
// as usual, unless asked otherwise) and a bright square marker near the nipple, at the top for
// CC and at the bottom for MLO, so that placement, mirroring and flips show on screen pixels.
#include <filesystem>
#include <string>

namespace delineate::test {

struct TestMammo {
  std::string laterality = "R";  // "R" / "L"
  std::string view = "CC";       // "CC" / "MLO"
  std::string studyKey = "current";
  std::string studyDate = "20260502";
  bool swapped = false;  // chest wall stored on the unusual side (a right breast's on the left)
  bool monochrome1 = false;
  std::string extra;  // appended to the file name
};

constexpr int kMammoColumns = 300;
constexpr int kMammoRows = 400;
constexpr double kMammoSpacing = 0.2;  // mm
constexpr int kBackground = 100, kTissue = 2000, kMarker = 4000;
constexpr double kWindowCenter = 2048, kWindowWidth = 4096;
// The marker: 20 x 20 pixels at depth 150..170 from the chest wall; rows 110..130 (CC) or
// 270..290 (MLO), clear of the captions in the corners.
constexpr int kMarkerDepth = 150;
int markerRow(const std::string& view);

// Writes one view into `folder` (created); returns the file.
std::filesystem::path writeTestMammo(const std::filesystem::path& folder, const TestMammo& m);
// The four screening views of one study.
void writeTestStudy(const std::filesystem::path& folder, const std::string& studyKey,
                    const std::string& date);

// A breast tomosynthesis object (Breast Tomosynthesis Image Storage, multi-frame, enhanced
// functional groups): `frames` frames of the test breast whose marker sits at row 20 + 30 * k in
// frame k (counted along the stack's positions), so that scrolling shows it move.
std::filesystem::path writeTestTomo(const std::filesystem::path& folder, const TestMammo& m,
                                    int frames);
int tomoMarkerRow(int frame);

// The built-in sample's four screening views (1280 x 1664, a spiculated mass in the left breast,
// calcifications in the right) as MG DICOM, without the rest of the sample.
void writeSampleMammoStudy(const std::filesystem::path& folder);

}  // namespace delineate::test
