#include "app/gui/mammo/MammoReportPanel.h"

#include <QCheckBox>
#include <QDateTime>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTabWidget>
#include <QVBoxLayout>
#include <cstdio>

#include "app/gui/mammo/MammoFeature.h"
#include "app/gui/mammo/MammoFindingEditor.h"
#include "app/gui/mammo/MammoFindingsController.h"
#include "app/gui/mammo/MammoReadFirstBox.h"
#include "app/gui/mammo/MammoReportFields.h"
#include "app/gui/reports/ReportAudit.h"
#include "app/gui/reports/ReportExportButton.h"
#include "app/gui/reports/ReportSteps.h"
#include "app/gui/reports/ReportUndoKeys.h"
#include "app/gui/shell/JobProgressWidget.h"
#include "core/Error.h"
#include "core/report/CadMarkLinks.h"
#include "core/report/MammographyDraft.h"
#include "core/report/MammographyReportJson.h"
#include "core/report/ReportSignOff.h"

namespace delineate::app {

namespace cr = core::report;

MammoReportPanel::MammoReportPanel(MammoFeature* feature, bool interactive, QWidget* parent)
    : QWidget(parent), feature_(feature), interactive_(interactive), audit_(new ReportAudit(this)) {
  auto* column = new QVBoxLayout(this);
  auto* top = new QHBoxLayout;
  readFirst_ = new QCheckBox(tr("Read first, then reveal AI"), this);
  readFirst_->setObjectName(QStringLiteral("reportReadFirst"));
  readFirst_->setToolTip(
      tr("Hide the AI's marks and values until you have recorded your own "
         "assessment"));
  auto* draft = new QPushButton(tr("Draft from AI findings"), this);
  draft->setObjectName(QStringLiteral("reportDraft"));
  top->addWidget(readFirst_);
  top->addStretch(1);
  top->addWidget(draft);
  column->addLayout(top);
  readFirstBox_ = new MammoReadFirstBox(this);
  column->addWidget(readFirstBox_);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  status_->setMinimumHeight(status_->fontMetrics().lineSpacing() * 2);
  column->addWidget(status_);
  tabs_ = new QTabWidget(this);
  auto changer = [this](const std::function<void(cr::MammographyContent&)>& edit) {
    return change(edit);
  };
  fields_ = new MammoReportFields(changer, this);
  tabs_->addTab(fields_, tr("Fields"));
  findingEditor_ = new MammoFindingEditor(changer, this);
  tabs_->addTab(findingEditor_, tr("Findings"));
  column->addWidget(tabs_, 1);
  auto* buttons = new QGridLayout;
  undoButton_ = new QPushButton(tr("Undo"), this);
  redoButton_ = new QPushButton(tr("Redo"), this);
  undoButton_->setToolTip(tr("Undo the last change of the report (Ctrl+Z)"));
  redoButton_->setToolTip(tr("Redo (Ctrl+Shift+Z)"));
  acceptAllButton_ = new QPushButton(tr("Accept all AI proposals"), this);
  signButton_ = new QPushButton(tr("Sign…"), this);
  addendumButton_ = new QPushButton(tr("Addendum…"), this);
  saveButton_ = new QPushButton(tr("Save…"), this);
  buttons->addWidget(undoButton_, 0, 0);
  buttons->addWidget(redoButton_, 0, 1);
  buttons->addWidget(acceptAllButton_, 0, 2, 1, 2);
  buttons->addWidget(signButton_, 1, 0);
  buttons->addWidget(addendumButton_, 1, 1);
  buttons->addWidget(saveButton_, 1, 2);
  exportButton_ = new ReportExportButton([this](QString& whyNot) { return exportSource(whyNot); },
                                         interactive_, this);
  buttons->addWidget(exportButton_, 1, 3);
  column->addLayout(buttons);
  column->addWidget(new JobProgressWidget(exportButton_->jobs(), this));
  connect(exportButton_, &ReportExportButton::exported, this,
          [this](const QString& file, const QStringList& notes, const QString& error) {
            differences_->setPlainText(
                error.isEmpty() ? tr("Exported to %1.").arg(file) +
                                      (notes.isEmpty() ? QString()
                                                       : QStringLiteral("\n") +
                                                             notes.join(QStringLiteral("\n")))
                                : error);
          });
  differences_ = new QPlainTextEdit(this);
  differences_->setReadOnly(true);
  differences_->setMaximumHeight(80);
  column->addWidget(differences_);
  new ReportUndoKeys(
      this, [this] { undo(); }, [this] { redo(); });

  connect(readFirst_, &QCheckBox::toggled, this, &MammoReportPanel::setReadFirst);
  connect(feature_->findings(), &MammoFindingsController::findingsReplaced, this,
          &MammoReportPanel::checkMarkLinks);
  connect(draft, &QPushButton::clicked, this, [this] { draftFromFindings(); });
  connect(readFirstBox_, &MammoReadFirstBox::recordRequested, this,
          &MammoReportPanel::recordOwnAssessment);
  connect(readFirstBox_, &MammoReadFirstBox::revealRequested, this, &MammoReportPanel::revealAi);
  connect(findingEditor_, &MammoFindingEditor::findingSelected, this,
          &MammoReportPanel::highlightFinding);
  // A finding's row in the table selects it in the Findings tab (and highlights its mark).
  connect(fields_, &MammoReportFields::findingActivated, this, [this](int id) {
    findingEditor_->selectFinding(id);
    highlightFinding(id);
  });
  connect(undoButton_, &QPushButton::clicked, this, &MammoReportPanel::undo);
  connect(redoButton_, &QPushButton::clicked, this, &MammoReportPanel::redo);
  connect(acceptAllButton_, &QPushButton::clicked, this, &MammoReportPanel::acceptAll);
  connect(signButton_, &QPushButton::clicked, this, [this] {
    report_steps::askAndSign(
        this, [this](const QString& name) { return sign(name); },
        [this](const QString& message) { reportError(message); });
  });
  connect(addendumButton_, &QPushButton::clicked, this, [this] {
    report_steps::askAndAddAddendum(
        this, [this](const QString& text, const QString& name) { return addAddendum(text, name); });
  });
  connect(saveButton_, &QPushButton::clicked, this, [this] {
    const QString f = QFileDialog::getSaveFileName(
        this, tr("Save the report"), QStringLiteral("report.json"), tr("Report (*.json)"));
    if (!f.isEmpty()) {
      save(f);
    }
  });
  refresh();
}

MammoReportPanel::~MammoReportPanel() = default;

QTreeWidget* MammoReportPanel::fields() const {
  return fields_->tree();
}

QString MammoReportPanel::auditFile() {
  return ReportAudit::auditFile();
}

QString MammoReportPanel::user() const {
  return report_steps::user();
}

bool MammoReportPanel::draftFromFindings() {
  const auto& findings = feature_->findings()->findings();
  if (!findings) {
    reportError(tr("There are no AI findings to draft from: use Find or Open AI findings first."));
    return false;
  }
  std::vector<cr::ImageFacts> facts;
  const auto& views = feature_->files().views;
  for (std::size_t i = 0; i < views.size(); ++i) {
    if (const viewers::MammoImage* image = feature_->image(i)) {
      cr::ImageFacts f;
      f.imageId = feature_->findings()->canonicalImageId(image->id);
      f.view = views[i];
      f.columns = image->placed.columns;
      f.rows = image->placed.rows;
      f.spacingMm = image->placed.spacing;
      f.chestWall = image->placed.storedWall;
      facts.push_back(f);
    }
  }
  try {
    cr::MammographyReport drafted = cr::draftFromFindings(*findings, facts);
    if (readFirst_->isChecked()) {
      drafted.enableReadFirst();
    }
    report_ = std::move(drafted);
  } catch (const core::Error& e) {
    reportError(tr("Cannot draft the report:\n%1").arg(QString::fromUtf8(e.what())));
    return false;
  }
  history_.clear();
  record({{report_steps::now(), user().toStdString(), "draft", "", "", findings->source}});
  refresh();
  return true;
}

void MammoReportPanel::setReport(cr::MammographyReport report) {
  report_ = std::move(report);
  history_.clear();
  refresh();
}

void MammoReportPanel::clear() {
  report_.reset();
  history_.clear();
  refresh();
}

bool MammoReportPanel::change(const std::function<void(cr::MammographyContent&)>& edit) {
  if (!report_) {
    return false;
  }
  try {
    record(history_.change(*report_, [&](cr::MammographyReport& r) {
      return r.edit(user().toStdString(), report_steps::now(), edit);
    }));
  } catch (const core::Error& e) {
    reportError(QString::fromUtf8(e.what()));
    return false;
  }
  refresh();
  return true;
}

void MammoReportPanel::checkMarkLinks() {
  if (!report_ || report_->locked()) {
    return;
  }
  const MammoFindingsController* controller = feature_->findings();
  const core::mammo::StudyFindings none;
  const auto& findings = controller->findings() ? *controller->findings() : none;
  try {
    record(history_.change(*report_, [&](cr::MammographyReport& r) {
      return cr::updateMarkLinks(
          r, findings, user().toStdString(), report_steps::now(),
          [controller](const std::string& id) { return controller->canonicalImageId(id); });
    }));
  } catch (const core::Error& e) {
    reportError(QString::fromUtf8(e.what()));
  }
  refresh();
}

bool MammoReportPanel::setComposition(cr::BreastComposition composition) {
  return change([&](cr::MammographyContent& c) { c.composition.set(composition); });
}

bool MammoReportPanel::setAssessment(cr::AssessmentCategory category) {
  return change([&](cr::MammographyContent& c) { c.assessmentOverall.set(category); });
}

bool MammoReportPanel::setImpression(const QString& text) {
  return change([&](cr::MammographyContent& c) { c.impression.set(text.toStdString()); });
}

bool MammoReportPanel::acceptAll() {
  return change([](cr::MammographyContent& c) { cr::acceptAllProposals(c); });
}

void MammoReportPanel::setReadFirst(bool on) {
  if (!report_ && readFirst_->isChecked() != on) {
    readFirst_->setChecked(on);  // comes back here through toggled
    return;
  }
  refresh();  // with a report, the box shows its mode again
}

bool MammoReportPanel::recordOwnAssessment(cr::AssessmentCategory category) {
  if (!report_) {
    return false;
  }
  try {
    record({history_.change(*report_, [&](cr::MammographyReport& r) {
      return r.recordOwnAssessment(user().toStdString(), report_steps::now(), category);
    })});
  } catch (const core::Error& e) {
    reportError(QString::fromUtf8(e.what()));
    return false;
  }
  refresh();
  return true;
}

bool MammoReportPanel::revealAi() {
  if (!report_) {
    return false;
  }
  try {
    record({report_->revealAi(user().toStdString(), report_steps::now())});
  } catch (const core::Error& e) {
    reportError(QString::fromUtf8(e.what()));
    return false;
  }
  history_.clear();  // the AI cannot be hidden again, nor the own assessment changed
  refresh();
  return true;
}

bool MammoReportPanel::undo() {
  if (!report_steps::undo(report_, history_, recorder())) {
    return false;
  }
  refresh();
  return true;
}

bool MammoReportPanel::redo() {
  if (!report_steps::redo(report_, history_, recorder())) {
    return false;
  }
  refresh();
  return true;
}

QStringList MammoReportPanel::sign(const QString& name) {
  const QStringList missing = report_steps::sign(report_, history_, name, recorder());
  refresh();
  return missing;
}

bool MammoReportPanel::addAddendum(const QString& text, const QString& name) {
  const QString problem = report_steps::addAddendum(report_, text, name, recorder());
  if (!problem.isEmpty()) {
    reportError(problem);
    return false;
  }
  refresh();
  return true;
}

bool MammoReportPanel::save(const QString& file) {
  if (!report_) {
    return false;
  }
  try {
    cr::writeMammographyReport(*report_, file.toStdString());
    return true;
  } catch (const core::Error& e) {
    reportError(tr("Cannot save the report %1:\n%2").arg(file, QString::fromUtf8(e.what())));
    return false;
  }
}

report_steps::Record MammoReportPanel::recorder() {
  return [this](const std::vector<cr::AuditEntry>& entries) { record(entries); };
}

void MammoReportPanel::record(const std::vector<cr::AuditEntry>& entries) {
  const QString problem = audit_->append(entries);
  if (!problem.isEmpty()) {
    reportError(tr("The audit trail cannot be written (%1); the change is kept in the report.")
                    .arg(problem));
  }
}

QString MammoReportPanel::statusText() const {
  return status_->text();
}

QString MammoReportPanel::differencesText() const {
  return differences_->toPlainText();
}

void MammoReportPanel::updateConcealment() {
  const bool hidden = report_ ? !report_->aiVisible() : readFirst_->isChecked();
  feature_->findings()->setConcealed(hidden);
}

void MammoReportPanel::highlightFinding(int id) {
  if (!report_ || !report_->aiVisible()) {
    return;
  }
  for (const cr::MammoFinding& f : report_->content().findings) {
    if (f.id == id && f.link.kind == cr::ReportLink::Kind::CadMark) {
      feature_->findings()->highlightMark(f.link.imageId, f.link.markIndex);
    }
  }
}

void MammoReportPanel::refresh() {
  const bool has = report_.has_value();
  const bool locked = has && report_->locked();
  const bool aiShown = has && report_->aiVisible();
  const bool editable = aiShown && !locked;
  readFirst_->setEnabled(!has);
  if (has) {
    const QSignalBlocker block(readFirst_);
    readFirst_->setChecked(report_->readFirst().enabled);
  }
  updateConcealment();
  readFirstBox_->showReport(has ? &*report_ : nullptr);
  acceptAllButton_->setEnabled(editable);
  signButton_->setEnabled(has && !locked);
  addendumButton_->setEnabled(locked);
  saveButton_->setEnabled(has);
  undoButton_->setEnabled(has && history_.canUndo(*report_));
  redoButton_->setEnabled(has && history_.canRedo(*report_));
  findingEditor_->setContent(aiShown ? &report_->content() : nullptr, editable);
  fields_->showReport(has ? &*report_ : nullptr, aiShown, editable);
  if (!has) {
    status_->setText(readFirst_->isChecked()
                         ? tr("No report. Read first: the AI's marks stay hidden. Find, then "
                              "draft, record your assessment and reveal the AI.")
                         : tr("No report. Find or open AI findings, then draft."));
    differences_->clear();
    return;
  }
  const auto& origin = report_->aiOrigin();
  QString status = !origin    ? tr("Report without AI.")
                   : !aiShown ? tr("Draft from an AI result, hidden until you reveal it.")
                   : origin->demonstration
                       ? tr("Draft from %1 — DEMONSTRATION, NOT A DIAGNOSIS.")
                             .arg(QString::fromStdString(origin->source))
                       : tr("Draft from %1.").arg(QString::fromStdString(origin->source));
  if (const auto& signature = report_->signOff().signature()) {
    status +=
        tr(" Signed by %1 at %2; locked (addenda only: %3).")
            .arg(QString::fromStdString(signature->name), QString::fromStdString(signature->time))
            .arg(report_->signOff().addenda().size());
  }
  status_->setText(status);
  if (!aiShown) {
    differences_->setPlainText(tr("The AI draft is hidden until you reveal it."));
    return;
  }
  QStringList diff;
  for (const auto& d : report_->differencesFromAiDraft()) {
    const char* kind = d.kind == cr::FieldDifference::Kind::Changed ? "changed"
                       : d.kind == cr::FieldDifference::Kind::Added ? "added"
                                                                    : "removed";
    diff << QStringLiteral("%1 %2: %3 → %4")
                .arg(QString::fromStdString(d.path), QString::fromLatin1(kind),
                     QString::fromStdString(d.aiValue), QString::fromStdString(d.value));
  }
  differences_->setPlainText(diff.isEmpty() ? tr("Same as the AI draft.")
                                            : tr("Differences from the AI draft:\n") +
                                                  diff.join(QStringLiteral("\n")));
}

std::optional<ReportExportSource> MammoReportPanel::exportSource(QString& whyNot) const {
  if (!report_) {
    whyNot = tr("There is no report to export: draft one from the AI findings or open one.");
    return std::nullopt;
  }
  ReportExportSource source{*report_, nullptr, nullptr, {}, feature_->findings()->findings()};
  const std::string& study = report_->subject().studyInstanceUid;
  for (const core::mammo::MammoView& v : feature_->files().views) {
    if (study.empty() || v.studyUid == study) {
      source.views.push_back(v);
    }
  }
  return source;
}

void MammoReportPanel::reportError(const QString& message) {
  if (interactive_) {
    QMessageBox::warning(this, tr("Report"), message);
  } else {
    std::fprintf(stderr, "delineate: %s\n", message.toLocal8Bit().constData());
  }
}

}  // namespace delineate::app
