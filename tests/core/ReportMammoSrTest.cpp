// The mammography report as a DICOM Comprehensive SR: a signed report with addenda and an
// unsigned AI draft read back with identical values, BI-RADS values as CODE items with the DICOM
// code values, references to the views of the CAD marks, and dciodvfy.
#include <gtest/gtest.h>

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmsr/dsrdoc.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "ReportSrTestSupport.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/report/MammographyReportSr.h"

using namespace delineate::core;
using namespace delineate::core::report;
using namespace delineate::test;
namespace fs = std::filesystem;

namespace {

class ReportMammoSr : public MammoStudySuite {
 protected:
  static MammoSrSource source() { return {pathsOf(views())}; }
};

// Every content item of the document: concept name code value -> value (code value for CODE,
// the text for TEXT, the number's DS for NUM), in document order.
struct Item {
  std::string name, valueType, value;
};

void collect(DSRDocumentTree& tree, std::vector<Item>& items) {
  const DSRContentItem& c = tree.getCurrentContentItem();
  Item item{c.getConceptName().getCodeValue().c_str(),
            DSRTypes::valueTypeToDefinedTerm(c.getValueType()), ""};
  if (c.getValueType() == DSRTypes::VT_Code) {
    item.value = c.getCodeValue().getCodeValue().c_str();
  } else if (c.getValueType() == DSRTypes::VT_Text) {
    item.value = c.getStringValue().c_str();
  } else if (c.getValueType() == DSRTypes::VT_Num) {
    item.value = c.getNumericValue().getNumericValue().c_str();
  }
  items.push_back(item);
  if (tree.goDown() > 0) {
    do {
      collect(tree, items);
    } while (tree.gotoNext() > 0);
    tree.goUp();
  }
}

std::vector<Item> itemsOf(const fs::path& file) {
  DcmFileFormat ff;
  EXPECT_TRUE(ff.loadFile(file.c_str()).good());
  DSRDocument doc;
  EXPECT_TRUE(doc.read(*ff.getDataset()).good());
  std::vector<Item> items;
  if (doc.getTree().gotoRoot() > 0) {
    collect(doc.getTree(), items);
  }
  return items;
}

// The code values of the CODE items named `name`.
std::vector<std::string> codesOf(const std::vector<Item>& items, const std::string& name) {
  std::vector<std::string> codes;
  for (const Item& i : items) {
    if (i.name == name && i.valueType == "CODE") {
      codes.push_back(i.value);
    }
  }
  return codes;
}

}  // namespace

TEST_F(ReportMammoSr, SignedReportWithAddendaReadsBackIdentical) {
  TempDir dir;
  const MammographyReport r = signedMammoReport(views());
  const fs::path out = dir / "signed-sr.dcm";
  writeMammographyReportSr(r, source(), out);
  const MammographySrContent c = readMammographyReportSr(out);

  EXPECT_EQ(c.values, mammographySrValues(r));
  EXPECT_EQ(c.subject, r.subject());
  EXPECT_TRUE(c.complete);
  EXPECT_TRUE(c.verified);
  EXPECT_EQ(c.verificationDateTime, "20240502093000+0000");
  ASSERT_TRUE(c.values.signature);
  EXPECT_EQ(c.values.signature->name, "Dr Jane Reader");
  EXPECT_EQ(c.values.signature->time, "2024-05-02T09:30:00Z");
  ASSERT_EQ(c.values.addenda.size(), 2u);
  EXPECT_EQ(c.values.addenda[0].text, "Compared with prior: new since 2022.");
  EXPECT_EQ(c.values.addenda[1].signature.name, "Dr \xC3\x89mile Second");
  EXPECT_EQ(c.values.addenda[1].signature.time, "2024-05-04T10:15:30Z");
  EXPECT_EQ(c.values.composition, BreastComposition::C);
  EXPECT_EQ(c.values.assessmentOverall, AssessmentCategory::HighlySuggestive);
  EXPECT_EQ(c.values.assessmentRight, AssessmentCategory::Suspicious);
  EXPECT_EQ(c.values.management, "Tissue diagnosis");
  EXPECT_FALSE(c.values.aiOrigin);

  ASSERT_EQ(c.values.findings.size(), 3u);
  const MammoSrFinding& mass = c.values.findings[0];
  EXPECT_EQ(mass.id, 1);
  EXPECT_EQ(mass.kind, FindingKind::Mass);
  EXPECT_EQ(mass.laterality, mammo::Laterality::Left);
  EXPECT_EQ(mass.clockPosition, 2);
  EXPECT_EQ(mass.depth, Depth::Middle);
  EXPECT_EQ(mass.sizeMm, 12.345678901234);  // exact, from the Floating Point Value
  EXPECT_EQ(mass.massShape, MassShape::Irregular);
  EXPECT_EQ(mass.massMargin, MassMargin::Spiculated);
  EXPECT_EQ(mass.massDensity, MassDensity::High);
  EXPECT_EQ(mass.aiScore, 0.8125);
  EXPECT_EQ(c.values.findings[1].calcificationMorphology, CalcificationMorphology::FinePleomorphic);
  EXPECT_EQ(c.values.findings[2].kind, FindingKind::Other);
  EXPECT_EQ(c.values.findings[2].description, "Skin mole, right breast");

  // The image library holds the four views; F1's mark is on L CC (by UID), F2's on R MLO (by
  // path); F3 has no mark.
  EXPECT_EQ(c.referencedImages.size(), 4u);
  EXPECT_EQ(c.findingImages.at(1), views()[2].sopInstanceUid);
  EXPECT_EQ(c.findingImages.at(2), views()[1].sopInstanceUid);
  EXPECT_EQ(c.findingImages.count(3), 0u);
}

TEST_F(ReportMammoSr, UnsignedAiDraftReadsBackIdentical) {
  TempDir dir;
  const MammographyReport r = aiDraftedMammoReport(views());
  ASSERT_EQ(r.content().findings.size(), 4u);
  const fs::path out = dir / "draft-sr.dcm";
  writeMammographyReportSr(r, source(), out);
  const MammographySrContent c = readMammographyReportSr(out);

  EXPECT_EQ(c.values, mammographySrValues(r));
  EXPECT_FALSE(c.complete);
  EXPECT_FALSE(c.verified);
  EXPECT_FALSE(c.values.signature);
  EXPECT_TRUE(c.values.addenda.empty());
  ASSERT_TRUE(c.values.aiOrigin);
  EXPECT_EQ(*c.values.aiOrigin, *r.aiOrigin());
  EXPECT_TRUE(c.values.aiOrigin->demonstration);
  EXPECT_EQ(c.values.aiOrigin->riskScore, 0.62);

  std::set<mammo::Laterality> sides;
  int masses = 0, calcifications = 0;
  for (const MammoSrFinding& f : c.values.findings) {
    sides.insert(*f.laterality);
    masses += f.kind == FindingKind::Mass;
    calcifications += f.kind == FindingKind::Calcification;
    EXPECT_TRUE(f.aiScore);
    EXPECT_TRUE(f.sizeMm);
    EXPECT_TRUE(f.depth);
    EXPECT_EQ(c.findingImages.count(f.id), 1u) << findingName(f.id);
  }
  EXPECT_EQ(sides.size(), 2u);
  EXPECT_EQ(masses, 2);
  EXPECT_EQ(calcifications, 2);
  const auto cc = std::find_if(c.values.findings.begin(), c.values.findings.end(),
                               [](const MammoSrFinding& f) { return f.massShape.has_value(); });
  ASSERT_NE(cc, c.values.findings.end());
  EXPECT_EQ(cc->massShape, MassShape::Oval);
  EXPECT_EQ(cc->massMargin, MassMargin::Circumscribed);
  EXPECT_TRUE(cc->clockPosition);
  EXPECT_EQ(c.values.assessmentOverall, AssessmentCategory::Incomplete);  // score 0.62 >= 0.5
}

TEST_F(ReportMammoSr, BiRadsValuesAreCodedWithTheDicomCodes) {
  TempDir dir;
  const fs::path out = dir / "sr.dcm";
  writeMammographyReportSr(signedMammoReport(views()), source(), out);
  const std::vector<Item> items = itemsOf(out);
  ASSERT_FALSE(items.empty());
  EXPECT_EQ(items[0].name, "111400");  // Breast Imaging Report

  using Codes = std::vector<std::string>;
  EXPECT_EQ(codesOf(items, "129715009"), Codes{"129718006"});              // composition C
  EXPECT_EQ(codesOf(items, "121071"), (Codes{"129788004", "309587003"}));  // mass, calcification
  EXPECT_EQ(codesOf(items, "300842002"), Codes{"49608001"});               // irregular
  EXPECT_EQ(codesOf(items, "111037"), Codes{"129742005"});                 // spiculated
  EXPECT_EQ(codesOf(items, "111035"), Codes{"129744006"});                 // high density
  EXPECT_EQ(codesOf(items, "111009"), Codes{"111344"});                    // fine pleomorphic (DCM)
  EXPECT_EQ(codesOf(items, "111008"), Codes{"129766004"});                 // grouped
  EXPECT_EQ(codesOf(items, "111014"), (Codes{"129773009", "129781005"}));  // 2 and 10 o'clock
  EXPECT_EQ(codesOf(items, "111020"), (Codes{"C25569", "255551008"}));     // middle, posterior
  // Assessment: overall 5, right 4, left 5 (CID 6027).
  EXPECT_EQ(codesOf(items, "111005"), (Codes{"397145000", "397144001", "397145000"}));
  // Laterality (CID 244): F1 left, F2 right, F3 right, then the right and left assessments.
  EXPECT_EQ(codesOf(items, "272741003"),
            (Codes{"7771000", "24028007", "24028007", "24028007", "7771000"}));
  EXPECT_EQ(codesOf(items, "121058"), Codes{"46342-2"});  // breast ffd mammogram

  // What has no code is TEXT: the kind "other", the descriptions.
  bool otherAsText = false;
  for (const Item& i : items) {
    otherAsText =
        otherAsText || (i.name == "121071" && i.valueType == "TEXT" && i.value == "Other finding");
  }
  EXPECT_TRUE(otherAsText);
}

TEST_F(ReportMammoSr, CategorySixUsesTheBiRadsCode) {
  TempDir dir;
  MammographyReport r;
  r.setSubject(mammoSubject());
  r.edit("reader", "2024-05-02T09:00:00Z", [](MammographyContent& c) {
    c.assessmentOverall.set(AssessmentCategory::KnownMalignancy);
  });
  const fs::path out = dir / "sr.dcm";
  writeMammographyReportSr(r, {}, out);  // no view files: the study from the subject
  EXPECT_EQ(codesOf(itemsOf(out), "111005"), std::vector<std::string>{"MA.II.A.5.6"});
  const MammographySrContent c = readMammographyReportSr(out);
  EXPECT_EQ(c.values.assessmentOverall, AssessmentCategory::KnownMalignancy);
  EXPECT_TRUE(c.referencedImages.empty());
  EXPECT_EQ(c.subject.studyInstanceUid, kMammoStudyUid);
}

TEST_F(ReportMammoSr, DciodvfyReportsNoErrors) {
  if (!haveDciodvfy()) {
    GTEST_SKIP() << "dciodvfy (dicom3tools) is not installed";
  }
  TempDir dir;
  MammographyReport minimal;  // no findings, no views: no image library, no evidence
  minimal.setSubject(mammoSubject());
  minimal.edit("reader", "2024-05-02T09:00:00Z", [](MammographyContent& c) {
    c.assessmentOverall.set(AssessmentCategory::Negative);
  });
  const struct {
    const char* name;
    MammographyReport report;
    MammoSrSource source;
  } cases[] = {{"signed", signedMammoReport(views()), source()},
               {"draft", aiDraftedMammoReport(views()), source()},
               {"minimal", minimal, {}}};
  for (const auto& c : cases) {
    const fs::path out = dir / (std::string(c.name) + ".dcm");
    writeMammographyReportSr(c.report, c.source, out);
    const DciodvfyResult v = dciodvfy(out);
    EXPECT_TRUE(v.errors.empty()) << c.name << ":\n" << v.output;
    EXPECT_NE(v.output.find("ComprehensiveSR"), std::string::npos) << v.output;
    for (const std::string& w : v.warnings) {
      std::cout << "dciodvfy (" << c.name << "): " << w;
    }
  }
}

TEST_F(ReportMammoSr, RefusesAReportWithoutAStudy) {
  TempDir dir;
  MammographyReport r;
  const fs::path out = dir / "sr.dcm";
  try {
    writeMammographyReportSr(r, {}, out);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
    EXPECT_EQ(e.where(), out.string());
    EXPECT_NE(std::string(e.what()).find("no study"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST_F(ReportMammoSr, RefusesAViewFileThatIsNotDicomByName) {
  TempDir dir;
  const fs::path bad = dir / "view.dcm";
  std::ofstream(bad) << "not a DICOM file";
  try {
    writeMammographyReportSr(signedMammoReport(views()), {{bad}}, dir / "sr.dcm");
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(bad.string()), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir / "sr.dcm"));
}

TEST_F(ReportMammoSr, RefusesAnImageThatIsNotABreastImagingReport) {
  try {
    readMammographyReportSr(views()[0].path);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
    EXPECT_EQ(e.where(), views()[0].path.string());
    EXPECT_NE(std::string(e.what()).find("not a DICOM structured report"), std::string::npos)
        << e.what();
  }
}
