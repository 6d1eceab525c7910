#include "core/io/DicomJpegCheck.h"

#include <gtest/gtest.h>

#include <vector>

using delineate::core::jpegMarkerProblem;

TEST(DicomJpegCheck, AcceptsAWellFormedHeaderAndRejectsBrokenOnes) {
  // SOI, APP0 (length 4), SOF3 (lossless) with its 8-byte start.
  const std::vector<unsigned char> good{0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF,
                                        0xC3, 0x00, 0x0B, 0x10, 0x00, 0x04, 0x00, 0x04, 0x01};
  EXPECT_EQ(jpegMarkerProblem(good.data(), good.size()), "");
  auto zeroLength = good;
  zeroLength[4] = 0;
  zeroLength[5] = 0;  // a segment length of 0 is what sent DCMTK's scan round in circles
  EXPECT_NE(jpegMarkerProblem(zeroLength.data(), zeroLength.size()), "");
  auto pastTheEnd = good;
  pastTheEnd[4] = 0x7F;
  EXPECT_NE(jpegMarkerProblem(pastTheEnd.data(), pastTheEnd.size()), "");
  const std::vector<unsigned char> noSoi{0x00, 0x01, 0x02, 0x03, 0x04};
  EXPECT_NE(jpegMarkerProblem(noSoi.data(), noSoi.size()), "");
  const std::vector<unsigned char> scanFirst{0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02};
  EXPECT_NE(jpegMarkerProblem(scanFirst.data(), scanFirst.size()), "");
  EXPECT_NE(jpegMarkerProblem(good.data(), 12), "");  // cut inside the frame header
}
