#include "app/gui/MammoReportPanel.h"

#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <cstdio>

#include "app/gui/MammoFeature.h"
#include "app/gui/MammoFindingsController.h"
#include "core/Error.h"
#include "core/report/MammographyDraft.h"
#include "core/report/MammographyReportJson.h"
#include "core/report/ReportSignOff.h"

namespace delineate::app {

namespace cr = core::report;

namespace {

std::string nowUtc() {
  return QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
}

QColor provenanceColour(cr::Provenance p) {
  switch (p) {
    case cr::Provenance::AiProposed:
      return {255, 200, 90};
    case cr::Provenance::AcceptedUnchanged:
      return {120, 200, 255};
    case cr::Provenance::Edited:
      return {255, 140, 140};
    case cr::Provenance::Manual:
      break;
  }
  return {200, 200, 200};
}

template <class E>
void fillCombo(QComboBox* combo) {
  combo->addItem(QObject::tr("(none)"), QString());
  for (const auto& e : cr::enumEntries<E>()) {
    combo->addItem(QString::fromLatin1(e.name), QString::fromLatin1(e.key));
  }
}

}  // namespace

MammoReportPanel::MammoReportPanel(MammoFeature* feature, bool interactive, QWidget* parent)
    : QWidget(parent), feature_(feature), interactive_(interactive) {
  auto* column = new QVBoxLayout(this);
  auto* draft = new QPushButton(tr("Draft from AI findings"), this);
  draft->setObjectName(QStringLiteral("reportDraft"));
  column->addWidget(draft);
  status_ = new QLabel(tr("No report. Find or open AI findings, then draft."), this);
  status_->setWordWrap(true);
  column->addWidget(status_);
  fields_ = new QTreeWidget(this);
  fields_->setColumnCount(4);
  fields_->setHeaderLabels({tr("Field"), tr("Value"), tr("AI value"), tr("Provenance")});
  fields_->setRootIsDecorated(false);
  fields_->header()->setSectionResizeMode(QHeaderView::Interactive);
  fields_->setColumnWidth(0, 190);
  fields_->setColumnWidth(1, 130);
  fields_->setColumnWidth(2, 100);
  fields_->setTextElideMode(Qt::ElideMiddle);
  column->addWidget(fields_, 1);
  auto* form = new QFormLayout;
  composition_ = new QComboBox(this);
  fillCombo<cr::BreastComposition>(composition_);
  assessment_ = new QComboBox(this);
  fillCombo<cr::AssessmentCategory>(assessment_);
  impression_ = new QPlainTextEdit(this);
  impression_->setMaximumHeight(80);
  form->addRow(tr("Composition"), composition_);
  form->addRow(tr("Assessment"), assessment_);
  form->addRow(tr("Impression"), impression_);
  column->addLayout(form);
  auto* buttons = new QHBoxLayout;
  auto* apply = new QPushButton(tr("Apply"), this);
  auto* acceptAllButton = new QPushButton(tr("Accept all AI proposals"), this);
  signButton_ = new QPushButton(tr("Sign…"), this);
  auto* addendum = new QPushButton(tr("Addendum…"), this);
  auto* saveButton = new QPushButton(tr("Save…"), this);
  for (QPushButton* b : {apply, acceptAllButton, signButton_, addendum, saveButton}) {
    buttons->addWidget(b);
  }
  column->addLayout(buttons);
  differences_ = new QPlainTextEdit(this);
  differences_->setReadOnly(true);
  differences_->setMaximumHeight(90);
  column->addWidget(differences_);

  connect(draft, &QPushButton::clicked, this, [this] { draftFromFindings(); });
  connect(apply, &QPushButton::clicked, this, [this] {
    if (!report_) {
      return;
    }
    const auto c =
        cr::parseKey<cr::BreastComposition>(composition_->currentData().toString().toStdString());
    const auto a =
        cr::parseKey<cr::AssessmentCategory>(assessment_->currentData().toString().toStdString());
    const std::string text = impression_->toPlainText().toStdString();
    change([&](cr::MammographyContent& content) {
      if (c && content.composition.value() != c) {
        content.composition.set(*c);
      }
      if (a && content.assessmentOverall.value() != a) {
        content.assessmentOverall.set(*a);
      }
      if (content.impression.value().value_or(std::string()) != text) {
        content.impression.set(text);
      }
    });
  });
  connect(acceptAllButton, &QPushButton::clicked, this, [this] { acceptAll(); });
  connect(signButton_, &QPushButton::clicked, this, [this] {
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Sign the report"), tr("Your name:"),
                                               QLineEdit::Normal, user(), &ok);
    if (ok && !name.isEmpty()) {
      const QStringList missing = sign(name);
      if (!missing.isEmpty()) {
        reportError(
            tr("The report cannot be signed yet:\n%1").arg(missing.join(QStringLiteral("\n"))));
      }
    }
  });
  connect(addendum, &QPushButton::clicked, this, [this] {
    bool ok = false;
    const QString text = QInputDialog::getMultiLineText(this, tr("Addendum"), tr("Text:"), {}, &ok);
    if (ok && !text.isEmpty()) {
      addAddendum(text, user());
    }
  });
  connect(saveButton, &QPushButton::clicked, this, [this] {
    const QString f = QFileDialog::getSaveFileName(
        this, tr("Save the report"), QStringLiteral("report.json"), tr("Report (*.json)"));
    if (!f.isEmpty()) {
      save(f);
    }
  });
  refresh();
}

MammoReportPanel::~MammoReportPanel() = default;

QString MammoReportPanel::auditFile() {
  const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
  return dir + QStringLiteral("/audit/reports.jsonl");
}

QString MammoReportPanel::user() const {
  const QByteArray u = qgetenv("USER");
  return u.isEmpty() ? QStringLiteral("reader") : QString::fromLocal8Bit(u);
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
      f.imageId = image->id;
      f.view = views[i];
      f.columns = image->placed.columns;
      f.rows = image->placed.rows;
      f.spacingMm = image->placed.spacing;
      f.chestWall = image->placed.storedWall;
      facts.push_back(f);
    }
  }
  try {
    report_ = cr::draftFromFindings(*findings, facts);
  } catch (const core::Error& e) {
    reportError(tr("Cannot draft the report:\n%1").arg(QString::fromUtf8(e.what())));
    return false;
  }
  record({{nowUtc(), user().toStdString(), "draft", "", "", findings->source}});
  refresh();
  return true;
}

void MammoReportPanel::clear() {
  report_.reset();
  refresh();
}

bool MammoReportPanel::change(const std::function<void(cr::MammographyContent&)>& edit) {
  if (!report_) {
    return false;
  }
  try {
    record(report_->edit(user().toStdString(), nowUtc(), edit));
  } catch (const core::Error& e) {
    reportError(QString::fromUtf8(e.what()));
    return false;
  }
  refresh();
  return true;
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

QStringList MammoReportPanel::sign(const QString& name) {
  if (!report_) {
    return {tr("there is no report")};
  }
  try {
    record({report_->sign(name.toStdString(), nowUtc())});
  } catch (const cr::MissingFieldsError& e) {
    QStringList missing;
    for (const auto& m : e.missing()) {
      missing << QString::fromStdString(m);
    }
    refresh();
    return missing;
  } catch (const core::Error& e) {
    return {QString::fromUtf8(e.what())};
  }
  refresh();
  return {};
}

bool MammoReportPanel::addAddendum(const QString& text, const QString& name) {
  if (!report_) {
    return false;
  }
  try {
    record({report_->addAddendum(text.toStdString(), name.toStdString(), nowUtc())});
  } catch (const core::Error& e) {
    reportError(QString::fromUtf8(e.what()));
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

void MammoReportPanel::record(const std::vector<cr::AuditEntry>& entries) {
  if (entries.empty()) {
    return;
  }
  try {
    if (!audit_) {
      QDir().mkpath(QFileInfo(auditFile()).absolutePath());
      audit_ = std::make_unique<cr::AuditTrail>(auditFile().toStdString());
    }
    audit_->append(entries);
  } catch (const core::Error& e) {
    reportError(tr("The audit trail cannot be written (%1); the change is kept in the report.")
                    .arg(QString::fromUtf8(e.what())));
  }
}

QString MammoReportPanel::statusText() const {
  return status_->text();
}

QString MammoReportPanel::differencesText() const {
  return differences_->toPlainText();
}

void MammoReportPanel::refresh() {
  fields_->clear();
  const bool has = report_.has_value();
  const bool locked = has && report_->locked();
  for (QWidget* w :
       std::initializer_list<QWidget*>{composition_, assessment_, impression_, signButton_}) {
    w->setEnabled(has && !locked);
  }
  if (!has) {
    status_->setText(tr("No report. Find or open AI findings, then draft."));
    differences_->clear();
    return;
  }
  const cr::MammographyContent& content = report_->content();
  for (const cr::FieldEntry& e : cr::listFields(content)) {
    auto* item = new QTreeWidgetItem(fields_);
    item->setText(0, QString::fromStdString(e.path));
    item->setText(1, QString::fromStdString(e.value));
    item->setText(2, e.aiValue ? QString::fromStdString(*e.aiValue) : QString());
    item->setText(3, QString::fromLatin1(cr::nameOf(e.provenance)));
    item->setBackground(3, provenanceColour(e.provenance));
    item->setForeground(3, Qt::black);
  }
  auto select = [](QComboBox* combo, const char* key) {
    combo->setCurrentIndex(std::max(0, combo->findData(QString::fromLatin1(key))));
  };
  select(composition_, content.composition.value() ? cr::keyOf(*content.composition.value()) : "");
  select(assessment_,
         content.assessmentOverall.value() ? cr::keyOf(*content.assessmentOverall.value()) : "");
  impression_->setPlainText(QString::fromStdString(content.impression.value().value_or("")));
  const auto& origin = report_->aiOrigin();
  QString status = !origin ? tr("Report without AI.")
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

void MammoReportPanel::reportError(const QString& message) {
  if (interactive_) {
    QMessageBox::warning(this, tr("Report"), message);
  } else {
    std::fprintf(stderr, "delineate: %s\n", message.toLocal8Bit().constData());
  }
}

}  // namespace delineate::app
