// Sending to a PACS from the real window, against a real one (Debian's Orthanc on 127.0.0.1):
// a DICOM node set up in Edit > Preferences > DICOM nodes (a wrong field said in its Status,
// Verify answered), then File > Send to PACS… sends the open CT series and the painted label
// map as a DICOM SEG; the PACS then holds every slice and the SEG, which refers to that series.
// A node marked "De-identify" gets only pseudonymous copies made with the options of
// Edit > Preferences > De-identification, and the SEG still belongs to the copied series.
#include <gtest/gtest.h>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/editing/ToolController.h"
#include "app/gui/pacs/DicomNodesPage.h"
#include "app/gui/pacs/PacsFeature.h"
#include "app/gui/pacs/SendToPacsDialog.h"
#include "app/gui/preferences/PreferencesDialog.h"
#include "app/gui/upload/DeidSettings.h"
#include "app/gui/upload/DeidentificationPage.h"
#include "net/OrthancServer.h"

using namespace delineate;

namespace {

class SendToPacsTest : public test::EditingWindowTest {
 protected:
  SendToPacsTest() { loadAsDicom_ = true; }

  // A short brush stroke through the centre: a label map worth sending as a SEG.
  void paint() {
    session()->ensureLabelMap();
    window_->action(QStringLiteral("tool.brush"))->trigger();
    editing()->tools()->setBrushRadiusMm(4);
    const core::Vec3 c = centre();
    stroke(view(0), {c, {c[0] + 6, c[1], c[2]}});
    ASSERT_TRUE(waitSettled());
    ASSERT_GT(countLabel(), 0u);
  }
};

}  // namespace

TEST_F(SendToPacsTest, TheSeriesAndItsSegReachThePacsSetUpInPreferences) {
  if (!test::OrthancServer::installed()) {
    GTEST_SKIP() << "Orthanc is not installed (scripts/install-deps.sh)";
  }
  test::ForgetPacsNodes forget;
  test::OrthancServer pacs(dir_ / "pacs");
  ASSERT_TRUE(pacs.running());

  // Without a node, the dialog says where to add one.
  window_->action(QStringLiteral("file.sendToPacs"))->trigger();
  app::SendToPacsDialog* send = window_->pacs()->dialog();
  ASSERT_TRUE(send->isVisible());
  EXPECT_FALSE(send->sendButton()->isEnabled());
  EXPECT_TRUE(send->resultLabel()->text().contains(QStringLiteral("No DICOM node")));

  // Edit > Preferences > DICOM nodes: add one, a bad port is named, then the right fields.
  window_->action(QStringLiteral("edit.preferences"))->trigger();
  app::PreferencesDialog* prefs = editing()->preferencesDialog();
  prefs->showPage(QStringLiteral("nodes"));
  app::DicomNodesPage* page = window_->pacs()->nodesPage();
  ASSERT_NE(page, nullptr);
  page->addButton()->click();
  QTableWidget* table = page->table();
  ASSERT_EQ(table->rowCount(), 1);
  table->item(0, 0)->setText(QStringLiteral("Reading room"));
  table->item(0, 1)->setText(QString::fromLatin1(test::OrthancServer::kAeTitle));
  table->item(0, 2)->setText(QStringLiteral("127.0.0.1"));
  table->item(0, 3)->setText(QStringLiteral("70000"));
  EXPECT_TRUE(table->item(0, 4)->text().contains(QStringLiteral("70000"))) << "the port named";
  table->selectRow(0);
  EXPECT_FALSE(page->verifyButton()->isEnabled());
  table->item(0, 3)->setText(QString::number(pacs.dicomPort()));
  ASSERT_TRUE(page->verifyButton()->isEnabled());
  page->verifyButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return !page->busy(); }, 30000));
  EXPECT_TRUE(table->item(0, 4)->text().startsWith(QStringLiteral("verified")))
      << table->item(0, 4)->text().toStdString();
  prefs->close();

  // Paint, then send the series and the label map.
  ASSERT_NO_FATAL_FAILURE(paint());

  window_->action(QStringLiteral("file.sendToPacs"))->trigger();
  ASSERT_EQ(send->nodeBox()->count(), 1) << "the node added in Preferences";
  EXPECT_TRUE(send->nodeBox()->currentText().startsWith(QStringLiteral("Reading room")));
  EXPECT_TRUE(send->seriesCheck()->isChecked());
  EXPECT_TRUE(send->segCheck()->isChecked());
  const std::size_t slices = session()->image()->info().sourceFiles.size();
  EXPECT_TRUE(send->seriesCheck()->text().contains(QString::number(slices)));
  ASSERT_TRUE(send->sendButton()->isEnabled());
  send->sendButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return !send->busy(); }, 120000));
  const QString result = send->resultLabel()->text();
  EXPECT_TRUE(result.startsWith(QStringLiteral("Sent %1 file").arg(slices + 1)))
      << result.toStdString();

  const nlohmann::json series = pacs.get("/series?expand");
  ASSERT_EQ(series.size(), 2u) << series.dump();
  std::size_t images = 0, segs = 0;
  for (const auto& s : series) {
    const std::string modality = s.at("MainDicomTags").value("Modality", "");
    (modality == "SEG" ? segs : images) += s.at("Instances").size();
  }
  EXPECT_EQ(images, slices);
  EXPECT_EQ(segs, 1u);
  EXPECT_EQ(pacs.get("/studies").size(), 1u) << "the SEG is in the series' study";
}

TEST_F(SendToPacsTest, ToANodeMarkedDeidentifyOnlyPseudonymousCopiesGoAndTheSegStillFitsThem) {
  if (!test::OrthancServer::installed()) {
    GTEST_SKIP() << "Orthanc is not installed (scripts/install-deps.sh)";
  }
  test::ForgetPacsNodes forget;
  struct ForgetDeid {
    ~ForgetDeid() { QSettings().remove(QStringLiteral("deid")); }
  } forgetDeid;
  test::OrthancServer pacs(dir_ / "pacs");
  ASSERT_TRUE(pacs.running());

  // Preferences: the node is a research archive; dates are kept shifted; the map is ours.
  window_->action(QStringLiteral("edit.preferences"))->trigger();
  app::PreferencesDialog* prefs = editing()->preferencesDialog();
  prefs->showPage(QStringLiteral("nodes"));
  app::DicomNodesPage* nodes = window_->pacs()->nodesPage();
  ASSERT_NE(nodes, nullptr);
  nodes->addButton()->click();
  QTableWidget* table = nodes->table();
  table->item(0, 0)->setText(QStringLiteral("Research archive"));
  table->item(0, 1)->setText(QString::fromLatin1(test::OrthancServer::kAeTitle));
  table->item(0, 2)->setText(QStringLiteral("127.0.0.1"));
  table->item(0, 3)->setText(QString::number(pacs.dicomPort()));
  ASSERT_EQ(table->columnCount(), 7);  // ... De-identify, C-MOVE
  table->item(0, 5)->setCheckState(Qt::Checked);
  prefs->showPage(QStringLiteral("deidentification"));
  auto* deidPage = prefs->findChild<app::DeidentificationPage*>();
  ASSERT_NE(deidPage, nullptr);
  ASSERT_TRUE(deidPage->isVisible());
  deidPage->retainDatesCheck()->setChecked(true);
  const std::filesystem::path mapFile = dir_ / "reid" / "map.json";
  deidPage->mapEdit()->setText(QString::fromStdString(mapFile.string()));
  Q_EMIT deidPage->mapEdit()->editingFinished();
  EXPECT_TRUE(deidPage->mapStatus()->text().contains(QStringLiteral("No map there yet")));
  EXPECT_TRUE(app::DeidSettings::load().options.retainLongitudinalModifiedDates);
  prefs->close();

  ASSERT_NO_FATAL_FAILURE(paint());

  window_->action(QStringLiteral("file.sendToPacs"))->trigger();
  app::SendToPacsDialog* send = window_->pacs()->dialog();
  ASSERT_TRUE(send->deidentifyCheck()->isChecked()) << "the node is marked De-identify";
  send->sendButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return !send->busy(); }, 120000));
  const std::size_t slices = session()->image()->info().sourceFiles.size();
  EXPECT_TRUE(
      send->resultLabel()->text().startsWith(QStringLiteral("Sent %1 file").arg(slices + 1)))
      << send->resultLabel()->text().toStdString();

  EXPECT_TRUE(std::filesystem::exists(mapFile)) << "the way back stays on the workstation";
  const nlohmann::json patients = pacs.get("/patients?expand");
  ASSERT_EQ(patients.size(), 1u);
  const std::string id = patients[0].at("MainDicomTags").value("PatientID", "");
  EXPECT_EQ(id.rfind("DLN-", 0), 0u) << id;
  EXPECT_NE(id, session()->image()->info().patientId);
  const nlohmann::json studies = pacs.get("/studies?expand");
  ASSERT_EQ(studies.size(), 1u) << "the SEG is in the de-identified series' study";
  EXPECT_NE(studies[0].at("MainDicomTags").value("StudyInstanceUID", ""),
            session()->image()->info().studyInstanceUid);
  const nlohmann::json series = pacs.get("/series?expand");
  ASSERT_EQ(series.size(), 2u);
  for (const auto& s : series) {
    EXPECT_EQ(pacs.get("/instances/" + s.at("Instances")[0].get<std::string>() + "/simplified-tags")
                  .value("PatientIdentityRemoved", ""),
              "YES");
  }
}
