// Priors for reading, against a real PACS (Debian's Orthanc with its DICOMweb plugin on
// 127.0.0.1): a screening mammogram retrieved in the study browser opens in the reading view,
// its prior (the patient's latest earlier MG study) is fetched and hung in the 8-up, while an
// older study of the patient and another patient's study stay on the PACS; File > Earlier
// studies of this patient lists the patient's earlier MG studies.
#include <gtest/gtest.h>

#include <dcmtk/dcmdata/dctk.h>
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "SharedSample.h"
#include "app/gui/MainWindow.h"
#include "app/gui/mammo/MammoFeature.h"
#include "app/gui/pacs/DicomNodeSettings.h"
#include "app/gui/pacs/PacsFeature.h"
#include "app/gui/pacs/PriorFetcher.h"
#include "app/gui/pacs/StudyBrowserDialog.h"
#include "app/gui/shell/JobRunner.h"
#include "core/io/DicomHeader.h"
#include "core/jobs/ProgressSink.h"
#include "core/pacs/DicomNetwork.h"
#include "net/OrthancServer.h"
#include "viewers/mammo/MammoReadingView.h"
#include "viewers/mammo/MammoViewport.h"

using namespace delineate;
namespace fs = std::filesystem;

namespace {

class MammoPriorsTest : public test::EditingWindowTest {};

std::vector<fs::path> dicomFiles(const fs::path& folder) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(folder)) {
    if (e.is_regular_file() && e.path().extension() == ".dcm") {
      out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The study under `from` copied to `to` as another study: its own study, series and instance
// UIDs (under `studyUid`), `date` and `patientId`.
std::vector<fs::path> copyStudy(const fs::path& from, const fs::path& to,
                                const std::string& studyUid, const std::string& date,
                                const std::string& patientId) {
  fs::create_directories(to);
  std::vector<fs::path> out;
  int index = 0;
  for (const fs::path& file : dicomFiles(from)) {
    DcmFileFormat f;
    EXPECT_TRUE(f.loadFile(file.c_str()).good()) << file;
    DcmDataset* d = f.getDataset();
    Sint32 series = 0;
    d->findAndGetSint32(DCM_SeriesNumber, series);
    const std::string sop = studyUid + "." + std::to_string(series) + "." + std::to_string(++index);
    d->putAndInsertString(DCM_StudyInstanceUID, studyUid.c_str());
    d->putAndInsertString(DCM_SeriesInstanceUID, (studyUid + "." + std::to_string(series)).c_str());
    d->putAndInsertString(DCM_SOPInstanceUID, sop.c_str());
    d->putAndInsertString(DCM_StudyDate, date.c_str());
    d->putAndInsertString(DCM_PatientID, patientId.c_str());
    d->putAndInsertString(DCM_AccessionNumber, ("A" + date).c_str());
    f.getMetaInfo()->putAndInsertString(DCM_MediaStorageSOPInstanceUID, sop.c_str());
    out.push_back(to / (std::to_string(index) + ".dcm"));
    EXPECT_TRUE(f.saveFile(out.back().c_str()).good()) << out.back();
  }
  return out;
}

int rowOfDate(QTableWidget* table, const QString& date) {
  for (int r = 0; r < table->rowCount(); ++r) {
    if (table->item(r, 2) != nullptr && table->item(r, 2)->text() == date) {
      return r;
    }
  }
  return -1;
}

}  // namespace

TEST_F(MammoPriorsTest, AScreeningStudyFromThePacsIsReadWithItsPriorInTheEightUp) {
  if (!test::OrthancServer::installed() || !test::OrthancServer::dicomWebInstalled()) {
    GTEST_SKIP() << "Orthanc or its DICOMweb plugin is not installed (scripts/install-deps.sh)";
  }
  test::ForgetPacsNodes forget;
  test::OrthancOptions options;
  options.dicomWeb = true;
  test::OrthancServer pacs(dir_ / "pacs", options);
  ASSERT_TRUE(pacs.running());

  // The sample's screening study of 2026 and its prior of 2024, an older study of the same
  // patient (2022) and another patient's (2025), all on the PACS.
  const fs::path sample = test::sharedSample() / "mammo";
  const std::string olderUid = "1.2.826.0.1.3680043.10.1447.55.2022";
  const std::string otherUid = "1.2.826.0.1.3680043.10.1447.55.9999";
  std::vector<fs::path> files = dicomFiles(sample / "screening-2026");
  const std::vector<fs::path> priorFiles = dicomFiles(sample / "screening-2024");
  ASSERT_EQ(files.size(), 4u);
  ASSERT_EQ(priorFiles.size(), 4u);
  const std::string currentUid = core::readDicomHeader(files.front().string()).studyInstanceUid;
  const std::string priorUid = core::readDicomHeader(priorFiles.front().string()).studyInstanceUid;
  files.insert(files.end(), priorFiles.begin(), priorFiles.end());
  for (const auto& more :
       {copyStudy(sample / "screening-2024", dir_ / "older", olderUid, "20220420", "DLN-0003"),
        copyStudy(sample / "screening-2024", dir_ / "other", otherUid, "20250101", "DLN-9999")}) {
    files.insert(files.end(), more.begin(), more.end());
  }
  core::NullProgress quiet;
  ASSERT_EQ(core::pacs::store(pacs.node(), files, {}, quiet).storedCount(), files.size());
  const QDir cache(app::StudyBrowserDialog::studyFolder());
  for (const std::string& uid : {currentUid, priorUid, olderUid, otherUid}) {
    QDir(cache.filePath(QString::fromStdString(uid))).removeRecursively();
  }
  app::DicomNodeSettings settings;
  settings.nodes = {pacs.webNode()};
  settings.save();

  window_->action(QStringLiteral("file.queryPacs"))->trigger();
  app::StudyBrowserDialog* browser = window_->pacs()->studyBrowser();
  browser->patientIdEdit()->setText(QStringLiteral("DLN-0003"));
  browser->modalityBox()->setCurrentIndex(browser->modalityBox()->findData(QStringLiteral("MG")));
  browser->searchButton()->click();
  QTableWidget* studies = browser->studyTable();
  ASSERT_TRUE(test::waitUntil([&] { return studies->rowCount() == 3; }, 30000))
      << browser->statusLabel()->text().toStdString();
  const int row = rowOfDate(studies, QStringLiteral("2026-05-02"));
  ASSERT_GE(row, 0);
  studies->selectRow(row);
  ASSERT_TRUE(test::waitUntil([&] { return browser->seriesTable()->rowCount() == 4; }, 30000));

  // Retrieve: the study opens in the reading view, then again with its prior in the 8-up.
  app::MammoFeature* mammo = window_->mammo();
  browser->retrieveButton()->click();
  ASSERT_TRUE(test::waitUntil(
      [&] {
        return mammo->active() && mammo->hanging().priorStudy == priorUid && mammo->settled() &&
               !browser->priors()->jobs()->busy() && !browser->retrieves()->busy();
      },
      90000))
      << browser->statusLabel()->text().toStdString();
  EXPECT_EQ(mammo->layoutId(), QStringLiteral("mammo-8up"));
  EXPECT_EQ(mammo->hanging().currentStudy, currentUid);
  viewers::MammoReadingView* view = mammo->view();
  ASSERT_EQ(view->viewportCount(), 8);
  for (int i = 0; i < 8; ++i) {
    ASSERT_TRUE(view->viewport(i)->image().has_value()) << "viewport " << i << " is empty";
  }
  EXPECT_TRUE(view->viewport(4)->image()->subtitle.contains(QStringLiteral("prior")));
  EXPECT_TRUE(browser->statusLabel()->text().contains(QStringLiteral("Prior(s) of 2024-04-28")))
      << browser->statusLabel()->text().toStdString();
  // Only the prior came along: the older study and the other patient's stay on the PACS.
  EXPECT_EQ(QDir(cache.filePath(QString::fromStdString(priorUid)))
                .entryList(QDir::Dirs | QDir::NoDotAndDotDot)
                .size(),
            4);
  EXPECT_FALSE(cache.exists(QString::fromStdString(olderUid)));
  EXPECT_FALSE(cache.exists(QString::fromStdString(otherUid)));
  QDir().mkpath(QStringLiteral(DELINEATE_SCREENSHOT_DIR));
  EXPECT_TRUE(window_->grab().save(QStringLiteral(DELINEATE_SCREENSHOT_DIR "/mammo-priors.png")));

  // Earlier studies of this patient: the browser searches for them, filled in as a user would.
  studies->setRowCount(0);
  window_->action(QStringLiteral("file.earlierStudies"))->trigger();
  EXPECT_EQ(browser->patientIdEdit()->text(), QStringLiteral("DLN-0003"));
  EXPECT_EQ(browser->dateEdit()->text(), QStringLiteral("-20260501"));
  EXPECT_EQ(browser->modalityBox()->currentData().toString(), QStringLiteral("MG"));
  ASSERT_TRUE(test::waitUntil([&] { return studies->rowCount() == 2; }, 30000))
      << browser->statusLabel()->text().toStdString();
  EXPECT_GE(rowOfDate(studies, QStringLiteral("2024-04-28")), 0);
  EXPECT_GE(rowOfDate(studies, QStringLiteral("2022-04-20")), 0);
}
