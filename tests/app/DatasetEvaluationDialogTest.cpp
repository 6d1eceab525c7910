// The "Evaluate dataset" dialog under Xvfb, on small datasets written with the core writers:
// boxes shifted along x so that every Dice is known exactly, a reference without a test file and
// a test on another grid. Checks the rows, numeric sorting, the double-click signal, the exports
// against the core writers, errors, Cancel, the main window's command, and saves a screenshot.
#include "app/gui/compare/DatasetEvaluationDialog.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QMouseEvent>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "GuiTestSupport.h"
#include "TempDir.h"
#include "app/gui/MainWindow.h"
#include "app/gui/compare/CompareController.h"
#include "app/gui/compare/CompareDock.h"
#include "app/gui/compare/CompareFeature.h"
#include "app/gui/compare/EvaluationCaseModel.h"
#include "app/gui/compare/EvaluationCaseOpener.h"
#include "app/gui/compare/EvaluationSummaryModel.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "core/io/LabelMapFileIO.h"
#include "core/io/VolumeFileIO.h"
#include "core/metrics/DatasetEvaluation.h"
#include "core/metrics/EvaluationReport.h"

using namespace delineate;
using app::EvaluationCaseModel;
using app::EvaluationSummaryModel;
using delineate::test::TempDir;
using delineate::test::waitUntil;
namespace fs = std::filesystem;

namespace {

core::ImageGeometry grid(std::size_t nx = 40) {
  core::ImageGeometry g;
  g.size = {nx, 8, 8};
  return g;
}

// A "liver" (label 1) box x in [x0, x1), y and z in [2, 6), written as NIfTI with its segment
// JSON beside it.
void writeBox(const fs::path& file, std::size_t x0, std::size_t x1, std::size_t nx = 40) {
  core::Segment liver = core::defaultSegment(1);
  liver.name = "liver";
  core::LabelMap map("labels", grid(nx), {liver});
  for (std::size_t k = 2; k < 6; ++k) {
    for (std::size_t j = 2; j < 6; ++j) {
      for (std::size_t i = x0; i < x1; ++i) {
        map.mutableData()[map.index(i, j, k)] = 1;
      }
    }
  }
  core::writeLabelMapFiles(map, file);
}

// Shifted boxes: the overlap along x over the reference's length is the Dice.
struct KnownCase {
  const char* name;
  std::size_t ref0, ref1, test0, test1;
  double dice;
};
constexpr KnownCase kKnown[] = {{"case_a", 2, 12, 3, 13, 0.9},
                                {"case_b", 2, 10, 8, 16, 0.25},
                                {"case_c", 2, 10, 9, 17, 0.125},
                                {"case_e", 2, 10, 30, 38, 0.0}};

// One row of the case table in the view's (sorted) order: its case, status and a column's value.
struct ShownRow {
  QString name;
  QString status;
  double value;
};

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    out.push_back(line);
  }
  return out;
}

std::string readFile(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void sendMouse(QWidget* target, QEvent::Type type, const QPoint& at) {
  QMouseEvent e(type, QPointF(at), QPointF(target->mapToGlobal(at)), Qt::LeftButton,
                type == QEvent::MouseButtonRelease ? Qt::NoButton : Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(target, &e);
}

class DatasetEvaluationDialogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DELINEATE_REQUIRE_GUI();
    reference_ = dir_ / "reference";
    test_ = dir_ / "test";
    fs::create_directories(reference_);
    fs::create_directories(test_);
  }

  // The known cases, case_d with a reference only and case_f with a test on a 41-voxel grid.
  void writeSmallDataset() {
    for (const KnownCase& c : kKnown) {
      writeBox(reference_ / (std::string(c.name) + ".nii.gz"), c.ref0, c.ref1);
      writeBox(test_ / (std::string(c.name) + ".nii.gz"), c.test0, c.test1);
    }
    writeBox(reference_ / "case_d.nii.gz", 2, 10);
    writeBox(reference_ / "case_f.nii.gz", 2, 10);
    writeBox(test_ / "case_f.nii.gz", 2, 10, 41);
  }

  std::unique_ptr<app::DatasetEvaluationDialog> makeDialog() {
    auto d = std::make_unique<app::DatasetEvaluationDialog>(nullptr, false);
    d->setFolders(QString::fromStdString(reference_.string()),
                  QString::fromStdString(test_.string()));
    d->show();
    return d;
  }

  // Runs and waits for `finished`; its ok flag.
  static bool runAndWait(app::DatasetEvaluationDialog& d, bool* ended = nullptr) {
    bool done = false;
    bool ok = false;
    const auto connection =
        QObject::connect(&d, &app::DatasetEvaluationDialog::finished, [&](bool result) {
          done = true;
          ok = result;
        });
    EXPECT_TRUE(d.run());
    EXPECT_TRUE(waitUntil([&] { return done; }, 120000)) << "the evaluation did not finish";
    QObject::disconnect(connection);
    if (ended != nullptr) {
      *ended = done;
    }
    return done && ok;
  }

  // Source row of a case's first row.
  static int rowOf(const app::DatasetEvaluationDialog& d, const QString& name) {
    const EvaluationCaseModel* m = d.caseModel();
    for (int r = 0; r < m->rowCount(); ++r) {
      if (m->item(r, EvaluationCaseModel::kCaseColumn)->text() == name) {
        return r;
      }
    }
    return -1;
  }

  static double value(const app::DatasetEvaluationDialog& d, int row, int column) {
    return d.caseModel()->item(row, column)->data(EvaluationCaseModel::kSortRole).toDouble();
  }

  static std::vector<ShownRow> shown(const app::DatasetEvaluationDialog& d, int column) {
    std::vector<ShownRow> out;
    const QAbstractItemModel* p = d.caseProxy();
    for (int r = 0; r < p->rowCount(); ++r) {
      out.push_back({p->index(r, EvaluationCaseModel::kCaseColumn).data().toString(),
                     p->index(r, EvaluationCaseModel::kStatusColumn).data().toString(),
                     p->index(r, column).data(EvaluationCaseModel::kSortRole).toDouble()});
    }
    return out;
  }

  static void clickHeader(QTableView* view, int column) {
    QHeaderView* header = view->horizontalHeader();
    const QPoint at(header->sectionViewportPosition(column) + header->sectionSize(column) / 2,
                    header->height() / 2);
    sendMouse(header->viewport(), QEvent::MouseButtonPress, at);
    sendMouse(header->viewport(), QEvent::MouseButtonRelease, at);
    QApplication::processEvents();
  }

  static void doubleClickRow(QTableView* view, int proxyRow) {
    const QModelIndex index = view->model()->index(proxyRow, EvaluationCaseModel::kCaseColumn);
    view->scrollTo(index);
    const QPoint at = view->visualRect(index).center();
    QWidget* viewport = view->viewport();
    sendMouse(viewport, QEvent::MouseButtonPress, at);
    sendMouse(viewport, QEvent::MouseButtonRelease, at);
    sendMouse(viewport, QEvent::MouseButtonDblClick, at);
    sendMouse(viewport, QEvent::MouseButtonRelease, at);
    QApplication::processEvents();
  }

  static int proxyRowOf(const app::DatasetEvaluationDialog& d, const QString& name) {
    const QAbstractItemModel* p = d.caseProxy();
    for (int r = 0; r < p->rowCount(); ++r) {
      if (p->index(r, EvaluationCaseModel::kCaseColumn).data().toString() == name) {
        return r;
      }
    }
    return -1;
  }

  TempDir dir_;
  fs::path reference_;
  fs::path test_;
};

}  // namespace

TEST_F(DatasetEvaluationDialogTest, RowsShowTheKnownDiceAndTheCasesNotMeasured) {
  writeSmallDataset();
  auto d = makeDialog();
  ASSERT_TRUE(runAndWait(*d)) << d->message().toStdString();
  ASSERT_NE(d->lastEvaluation(), nullptr);
  EXPECT_EQ(d->caseModel()->rowCount(), 6) << "one row per case and label";
  for (const KnownCase& c : kKnown) {
    const int row = rowOf(*d, QString::fromLatin1(c.name));
    ASSERT_GE(row, 0) << c.name;
    EXPECT_NEAR(value(*d, row, EvaluationCaseModel::kDiceColumn), c.dice, 1e-6) << c.name;
    EXPECT_EQ(d->caseModel()->item(row, EvaluationCaseModel::kLabelColumn)->text(), "liver");
    EXPECT_EQ(d->caseModel()->item(row, EvaluationCaseModel::kStatusColumn)->text(), "ok");
    EXPECT_FALSE(d->caseModel()
                     ->item(row, EvaluationCaseModel::kDiceColumn)
                     ->data(EvaluationCaseModel::kFailedRole)
                     .toBool());
  }
  EXPECT_NEAR(value(*d, rowOf(*d, "case_a"), EvaluationCaseModel::kHd95Column), 1.0, 1e-6)
      << "a one-voxel shift";
  EXPECT_EQ(d->caseModel()->item(rowOf(*d, "case_a"), EvaluationCaseModel::kDiceColumn)->text(),
            "0.9000");

  const int missing = rowOf(*d, "case_d");
  ASSERT_GE(missing, 0);
  EXPECT_EQ(d->caseModel()->item(missing, EvaluationCaseModel::kStatusColumn)->text(),
            "missing test");
  EXPECT_TRUE(d->caseModel()
                  ->item(missing, EvaluationCaseModel::kNoteColumn)
                  ->text()
                  .startsWith("missing test: no test file for case_d.nii.gz"));
  EXPECT_TRUE(std::isnan(value(*d, missing, EvaluationCaseModel::kDiceColumn)));
  EXPECT_EQ(d->caseModel()->item(missing, EvaluationCaseModel::kDiceColumn)->text(), "—");
  const int differs = rowOf(*d, "case_f");
  ASSERT_GE(differs, 0);
  EXPECT_EQ(d->caseModel()->item(differs, EvaluationCaseModel::kStatusColumn)->text(),
            "grid differs");
  EXPECT_TRUE(d->caseModel()
                  ->item(differs, EvaluationCaseModel::kNoteColumn)
                  ->text()
                  .contains("grid differs: test vs reference: size 41x8x8 vs 40x8x8"))
      << d->caseModel()->item(differs, EvaluationCaseModel::kNoteColumn)->text().toStdString();
  for (const int failed : {missing, differs}) {
    for (int column = 0; column < EvaluationCaseModel::kColumnCount; ++column) {
      const QStandardItem* item = d->caseModel()->item(failed, column);
      EXPECT_TRUE(item->data(EvaluationCaseModel::kFailedRole).toBool());
      EXPECT_NE(item->background().color(), QColor(Qt::white)) << "failed cases are highlighted";
      EXPECT_EQ(item->background().style(), Qt::SolidPattern);
    }
  }
  EXPECT_TRUE(d->message().contains("6 cases, 4 measured")) << d->message().toStdString();
  EXPECT_TRUE(d->runButton()->isEnabled());
  EXPECT_FALSE(d->cancelButton()->isEnabled());
  EXPECT_TRUE(d->exportCsvButton()->isEnabled());
}

TEST_F(DatasetEvaluationDialogTest, SummaryShowsTheCoreStatisticsPerLabel) {
  writeSmallDataset();
  auto d = makeDialog();
  ASSERT_TRUE(runAndWait(*d));
  const core::DatasetEvaluation& e = *d->lastEvaluation();
  ASSERT_EQ(e.summary.size(), 1u);
  const EvaluationSummaryModel* m = d->summaryModel();
  ASSERT_EQ(m->rowCount(), 1);
  EXPECT_EQ(m->item(0, EvaluationSummaryModel::kLabelColumn)->text(), "liver");
  EXPECT_EQ(m->item(0, EvaluationSummaryModel::kCasesColumn)->text(), "4");
  const core::SummaryStatistics& dice = e.summary[0].metric(core::Metric::Dice);
  // (0.9 + 0.25 + 0.125 + 0) / 4 and the middle two's mean, as the core computed them.
  EXPECT_NEAR(dice.mean, 0.31875, 1e-12);
  EXPECT_NEAR(dice.median, 0.1875, 1e-12);
  auto at = [&](int column, int role = Qt::UserRole) {
    return m->item(0, column)->data(role).toDouble();
  };
  EXPECT_EQ(at(EvaluationSummaryModel::kDiceMeanColumn), dice.mean);
  EXPECT_EQ(at(EvaluationSummaryModel::kDiceMeanColumn, Qt::UserRole + 1), dice.sd);
  EXPECT_EQ(at(EvaluationSummaryModel::kDiceMedianColumn), dice.median);
  EXPECT_EQ(at(EvaluationSummaryModel::kDiceIqrColumn), dice.iqr());
  EXPECT_EQ(at(EvaluationSummaryModel::kDiceIqrColumn, Qt::UserRole + 1), dice.q1);
  EXPECT_EQ(at(EvaluationSummaryModel::kDiceIqrColumn, Qt::UserRole + 2), dice.q3);
  const core::SummaryStatistics& hd95 = e.summary[0].metric(core::Metric::Hd95Mm);
  EXPECT_EQ(at(EvaluationSummaryModel::kHd95MeanColumn), hd95.mean);
  EXPECT_EQ(at(EvaluationSummaryModel::kHd95MedianColumn), hd95.median);
  EXPECT_EQ(at(EvaluationSummaryModel::kHd95IqrColumn), hd95.iqr());
  const QString meanText = m->item(0, EvaluationSummaryModel::kDiceMeanColumn)->text();
  EXPECT_EQ(meanText, QString::number(dice.mean, 'f', 3) + QStringLiteral(" ± ") +
                          QString::number(dice.sd, 'f', 3));
}

TEST_F(DatasetEvaluationDialogTest, NumberColumnsSortByValueWithMissingValuesLast) {
  writeSmallDataset();
  auto d = makeDialog();
  ASSERT_TRUE(runAndWait(*d));
  QTableView* view = d->caseView();
  const auto isMissing = [](const ShownRow& r) { return std::isnan(r.value); };

  clickHeader(view, EvaluationCaseModel::kDiceColumn);
  EXPECT_EQ(view->horizontalHeader()->sortIndicatorSection(), EvaluationCaseModel::kDiceColumn);
  EXPECT_EQ(view->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
  std::vector<ShownRow> rows = shown(*d, EvaluationCaseModel::kDiceColumn);
  ASSERT_EQ(rows.size(), 6u);
  const std::vector<double> ascending{0.0, 0.125, 0.25, 0.9};
  for (std::size_t i = 0; i < ascending.size(); ++i) {
    EXPECT_NEAR(rows[i].value, ascending[i], 1e-6) << "ascending, row " << i;
  }
  EXPECT_TRUE(isMissing(rows[4]) && isMissing(rows[5])) << "missing values last";
  EXPECT_NE(rows[4].status, "ok");
  EXPECT_NE(rows[5].status, "ok");

  clickHeader(view, EvaluationCaseModel::kDiceColumn);
  EXPECT_EQ(view->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
  rows = shown(*d, EvaluationCaseModel::kDiceColumn);
  for (std::size_t i = 0; i < ascending.size(); ++i) {
    EXPECT_NEAR(rows[i].value, ascending[ascending.size() - 1 - i], 1e-6)
        << "descending, row " << i;
  }
  EXPECT_TRUE(isMissing(rows[4]) && isMissing(rows[5])) << "missing values last, descending too";

  // HD95 spans one and two digits (case_e's boxes are 20 voxels apart): as text "2x.xx" would
  // sort before "7.00".
  clickHeader(view, EvaluationCaseModel::kHd95Column);
  rows = shown(*d, EvaluationCaseModel::kHd95Column);
  std::vector<double> values;
  QStringList texts;
  for (int r = 0; r < 4; ++r) {
    values.push_back(rows[std::size_t(r)].value);
    texts << d->caseProxy()->index(r, EvaluationCaseModel::kHd95Column).data().toString();
  }
  EXPECT_TRUE(std::is_sorted(values.begin(), values.end()));
  EXPECT_EQ(rows[3].name, "case_e");
  EXPECT_GE(rows[3].value, 10.0);
  EXPECT_LT(rows[2].value, 10.0);
  QStringList textSorted = texts;
  textSorted.sort();
  EXPECT_NE(texts, textSorted) << "the data would sort differently as text";
  EXPECT_TRUE(isMissing(rows[4]) && isMissing(rows[5]));

  // Text columns: natural order.
  clickHeader(view, EvaluationCaseModel::kCaseColumn);
  rows = shown(*d, EvaluationCaseModel::kDiceColumn);
  EXPECT_EQ(rows.front().name, "case_a");
  EXPECT_EQ(rows.back().name, "case_f");
}

TEST_F(DatasetEvaluationDialogTest, DoubleClickingACaseEmitsItsFilesAndLabel) {
  writeSmallDataset();
  auto d = makeDialog();
  ASSERT_TRUE(runAndWait(*d));
  clickHeader(d->caseView(), EvaluationCaseModel::kDiceColumn);  // rows no longer in model order
  // QSignalSpy needs Qt6::Test, which the test target does not link: a recording slot instead.
  QList<QStringList> emitted;
  QObject::connect(
      d.get(), &app::DatasetEvaluationDialog::caseActivated,
      [&](const QString& reference, const QString& test, const QString& label, int value) {
        emitted.append({reference, test, label, QString::number(value)});
      });
  const int row = proxyRowOf(*d, "case_b");
  ASSERT_GE(row, 0);
  doubleClickRow(d->caseView(), row);
  ASSERT_EQ(emitted.size(), 1);
  EXPECT_EQ(emitted[0][0].toStdString(), (reference_ / "case_b.nii.gz").string());
  EXPECT_EQ(emitted[0][1].toStdString(), (test_ / "case_b.nii.gz").string());
  EXPECT_EQ(emitted[0][2], "liver");
  EXPECT_EQ(emitted[0][3], "1");

  doubleClickRow(d->caseView(), proxyRowOf(*d, "case_d"));
  EXPECT_EQ(emitted.size(), 1) << "a case without a test file has nothing to compare";
}

TEST_F(DatasetEvaluationDialogTest, ExportsWriteTheCoreWritersFilesAndNameAnUnwritableFile) {
  writeSmallDataset();
  auto d = makeDialog();
  ASSERT_TRUE(runAndWait(*d));
  const fs::path csv = dir_ / "out" / "evaluation.csv";
  fs::create_directories(csv.parent_path());
  ASSERT_TRUE(d->exportCsv(QString::fromStdString(csv.string()))) << d->message().toStdString();
  EXPECT_TRUE(d->message().contains(QString::fromStdString(csv.string())));
  // The same folders evaluated by the core alone, written by the core writer.
  core::NullProgress quiet;
  const core::DatasetEvaluation direct =
      core::evaluateDataset(reference_, test_, core::DatasetEvaluationOptions{}, quiet);
  const std::vector<std::string> written = lines(readFile(csv));
  EXPECT_EQ(written, lines(core::evaluationCsv(direct)));
  ASSERT_EQ(written.size(), 7u) << "header and one line per row";
  EXPECT_EQ(written[0].rfind("case,label,status,dice,", 0), 0u);
  EXPECT_NE(readFile(csv).find("case_d,,missing test: no test file for case_d.nii.gz"),
            std::string::npos);

  const fs::path json = dir_ / "out" / "evaluation.json";
  ASSERT_TRUE(d->exportJson(QString::fromStdString(json.string())));
  EXPECT_EQ(readFile(json), core::evaluationJson(*d->lastEvaluation()));
  const nlohmann::json parsed = nlohmann::json::parse(readFile(json));
  EXPECT_EQ(parsed["cases"].size(), 6u);

  const QString unwritable = QString::fromStdString((dir_ / "no" / "such" / "x.csv").string());
  EXPECT_FALSE(d->exportCsv(unwritable));
  EXPECT_TRUE(d->message().contains(unwritable)) << d->message().toStdString();
  EXPECT_FALSE(d->exportJson(unwritable + ".json"));
  EXPECT_TRUE(d->message().contains(unwritable + ".json")) << d->message().toStdString();
}

TEST_F(DatasetEvaluationDialogTest, AFolderThatCannotBeListedIsShownNamingIt) {
  auto d = makeDialog();
  const QString absent = QString::fromStdString((dir_ / "absent").string());
  d->setFolders(absent, QString::fromStdString(test_.string()));
  bool ended = false;
  EXPECT_FALSE(runAndWait(*d, &ended));
  EXPECT_TRUE(ended);
  EXPECT_TRUE(d->message().contains(absent)) << d->message().toStdString();
  EXPECT_EQ(d->lastEvaluation(), nullptr);
  EXPECT_TRUE(d->runButton()->isEnabled());
  EXPECT_FALSE(d->cancelButton()->isEnabled());
  EXPECT_FALSE(d->exportCsvButton()->isEnabled());

  d->setFolders(QString(), QString::fromStdString(test_.string()));
  EXPECT_FALSE(d->run()) << "no reference folder: nothing runs";
  EXPECT_TRUE(d->message().contains("reference folder"));
  EXPECT_FALSE(d->running());
}

TEST_F(DatasetEvaluationDialogTest, CancelDuringALargeDatasetShowsCancelledAndEnablesRun) {
  // 30 cases of 64^3, each a ball against a shifted ball.
  core::ImageGeometry g;
  g.size = {64, 64, 64};
  core::Segment liver = core::defaultSegment(1);
  liver.name = "liver";
  for (int c = 0; c < 30; ++c) {
    for (const bool isTest : {false, true}) {
      core::LabelMap map("labels", g, {liver});
      const double cx = 32 + (isTest ? 1.5 + 0.1 * c : 0);
      for (std::size_t k = 0; k < 64; ++k) {
        for (std::size_t j = 0; j < 64; ++j) {
          for (std::size_t i = 0; i < 64; ++i) {
            const double r2 =
                (i - cx) * (i - cx) + (j - 32.0) * (j - 32.0) + (k - 30.0) * (k - 30.0);
            map.mutableData()[map.index(i, j, k)] = r2 < 24.0 * 24.0 ? 1 : 0;
          }
        }
      }
      char name[32];
      std::snprintf(name, sizeof name, "big_%02d.nii.gz", c);
      core::writeLabelMapFiles(map, (isTest ? test_ : reference_) / name);
    }
  }
  auto d = makeDialog();
  bool done = false;
  bool ok = true;
  QObject::connect(d.get(), &app::DatasetEvaluationDialog::finished, [&](bool result) {
    done = true;
    ok = result;
  });
  ASSERT_TRUE(d->run());
  EXPECT_FALSE(d->runButton()->isEnabled());
  EXPECT_TRUE(d->cancelButton()->isEnabled());
  EXPECT_TRUE(d->running());
  // Cancel once a case is under way, as a user would after seeing the progress.
  ASSERT_TRUE(waitUntil([&] { return done || d->progressBar()->text().contains("case "); }));
  const QString stage = d->progressBar()->text();
  ASSERT_FALSE(done) << "the evaluation ended before it could be cancelled";
  EXPECT_TRUE(stage.contains("/30 big_")) << stage.toStdString();
  d->cancelButton()->click();
  ASSERT_TRUE(waitUntil([&] { return done; }, 60000));
  EXPECT_FALSE(ok);
  EXPECT_EQ(d->message(), "Cancelled");
  EXPECT_EQ(d->lastEvaluation(), nullptr);
  EXPECT_EQ(d->caseModel()->rowCount(), 0);
  EXPECT_TRUE(d->runButton()->isEnabled());
  EXPECT_FALSE(d->cancelButton()->isEnabled());
  EXPECT_FALSE(d->running());
  // Run again after the cancel: every case is measured.
  EXPECT_TRUE(runAndWait(*d)) << d->message().toStdString();
  EXPECT_EQ(d->caseModel()->rowCount(), 30);
}

TEST_F(DatasetEvaluationDialogTest, ScreenshotOfTheDialogAfterARun) {
  writeSmallDataset();
  auto d = makeDialog();
  d->labelsEdit()->setText("liver");
  ASSERT_TRUE(runAndWait(*d));
  clickHeader(d->caseView(), EvaluationCaseModel::kDiceColumn);
  d->caseView()->selectRow(proxyRowOf(*d, "case_b"));
  QApplication::processEvents();
  const QImage shot = d->grab().toImage();
  ASSERT_FALSE(shot.isNull());
  EXPECT_GE(shot.width(), 800);
  QDir().mkpath(QStringLiteral(DELINEATE_SCREENSHOT_DIR));
  const QString file = QStringLiteral(DELINEATE_SCREENSHOT_DIR "/dataset-evaluation-dialog.png");
  EXPECT_TRUE(shot.save(file)) << file.toStdString();
  std::printf("screenshot: %s\n", file.toLocal8Bit().constData());
}

TEST_F(DatasetEvaluationDialogTest, TheMainWindowCommandOpensOneDialog) {
  app::MainWindow w(app::MainWindowOptions{.interactive = false, .rememberRecent = false});
  w.show();
  QAction* a = w.action("analysis.evaluateDataset");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->text().remove('&'), "Evaluate Dataset…");
  a->trigger();
  app::DatasetEvaluationDialog* dialog = w.datasetEvaluation();
  ASSERT_NE(dialog, nullptr);
  EXPECT_TRUE(dialog->isVisible());
  EXPECT_FALSE(dialog->isModal());
  dialog->close();
  a->trigger();
  EXPECT_TRUE(dialog->isVisible());
  EXPECT_EQ(w.datasetEvaluation(), dialog);
  EXPECT_EQ(w.findChildren<app::DatasetEvaluationDialog*>().size(), 1);
}

TEST_F(DatasetEvaluationDialogTest, DoubleClickingACaseOpensItInTheCompareView) {
  writeSmallDataset();
  // case_b's image in the Decathlon layout beside the label folders; case_a has none.
  core::ImageGeometry g = grid();
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::Int16, g.voxelCount());
  core::VolumeInfo info;
  info.modality = "CT";
  fs::create_directories(dir_ / "imagesTr");
  core::writeVolumeFile(core::Volume(g, voxels, info), dir_ / "imagesTr" / "case_b.nii.gz");

  app::MainWindow window(app::MainWindowOptions{false, false});
  window.resize(1200, 800);
  window.show();
  app::DatasetEvaluationDialog* d = window.datasetEvaluation();
  d->setFolders(QString::fromStdString(reference_.string()),
                QString::fromStdString(test_.string()));
  d->toleranceSpin()->setValue(2.0);
  ASSERT_TRUE(runAndWait(*d)) << d->message().toStdString();

  app::CompareController* compare = window.compare()->controller();
  const auto openAndCompare = [&](const char* name) {
    bool opened = false;
    QString failure;
    const auto ok = QObject::connect(window.caseOpener(), &app::EvaluationCaseOpener::opened,
                                     [&] { opened = true; });
    const auto bad = QObject::connect(window.caseOpener(), &app::EvaluationCaseOpener::failed,
                                      [&](const QString& m) { failure = m; });
    doubleClickRow(d->caseView(), proxyRowOf(*d, name));
    EXPECT_TRUE(waitUntil([&] { return opened || !failure.isEmpty(); }, 60000)) << name;
    EXPECT_TRUE(failure.isEmpty()) << failure.toStdString();
    EXPECT_TRUE(waitUntil([&] { return compare->result() != nullptr && !compare->busy(); }, 60000))
        << name;
    QObject::disconnect(ok);
    QObject::disconnect(bad);
  };

  openAndCompare("case_b");
  ASSERT_NE(window.volume(), nullptr);
  EXPECT_EQ(fs::path(window.volume()->info().sourcePath), dir_ / "imagesTr" / "case_b.nii.gz")
      << "the case's own image, found beside the label folders";
  EXPECT_TRUE(window.compare()->dock()->isVisible());
  const app::CompareController::Result* r = compare->result();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->referenceName, "case_b reference");
  EXPECT_EQ(r->testName, "case_b test");
  EXPECT_EQ(r->label, 1);
  ASSERT_FALSE(r->evaluation.labels.empty());
  EXPECT_NEAR(r->evaluation.labels[0].metric(core::Metric::Dice), 0.25, 1e-9)
      << "the dialog's Dice for case_b";
  EXPECT_EQ(window.compare()->panel()->labelCombo()->currentText(), "liver");
  EXPECT_GT(r->counts.agree, 0u);
  QApplication::processEvents();
  QDir().mkpath(QStringLiteral(DELINEATE_SCREENSHOT_DIR));
  EXPECT_TRUE(window.grab().toImage().save(
      QStringLiteral(DELINEATE_SCREENSHOT_DIR "/dataset-case-in-compare-view.png")));

  // A case without an image is shown on its reference labels.
  openAndCompare("case_a");
  EXPECT_EQ(fs::path(window.volume()->info().sourcePath), reference_ / "case_a.nii.gz");
  r = compare->result();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->referenceName, "case_a reference");
  EXPECT_NEAR(r->evaluation.labels[0].metric(core::Metric::Dice), 0.9, 1e-9);
}
