#include "app/gui/mammo/MammoReadFirstBox.h"

#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "app/gui/reports/ReportCombos.h"

namespace delineate::app {

namespace cr = core::report;

namespace {

// "BI-RADS 4" (the lexicon name, long, goes to the tooltip).
QString categoryText(const std::optional<cr::AssessmentCategory>& c) {
  return c ? QObject::tr("BI-RADS %1").arg(QString::fromLatin1(cr::keyOf(*c)))
           : QObject::tr("not given yet");
}

}  // namespace

MammoReadFirstBox::MammoReadFirstBox(QWidget* parent) : QWidget(parent) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* group = new QGroupBox(tr("Your reading before the AI"), this);
  outer->addWidget(group);
  auto* column = new QVBoxLayout(group);
  auto* row = new QHBoxLayout;
  assessment_ = new QComboBox(group);
  assessment_->setObjectName(QStringLiteral("ownAssessment"));
  assessment_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  assessment_->setMinimumContentsLength(12);
  fillReportCombo<cr::AssessmentCategory>(assessment_, tr("Your assessment…"));
  record_ = new QPushButton(tr("Record"), group);
  reveal_ = new QPushButton(tr("Reveal AI"), group);
  reveal_->setObjectName(QStringLiteral("revealAi"));
  row->addWidget(assessment_, 1);
  row->addWidget(record_);
  row->addWidget(reveal_);
  column->addLayout(row);
  state_ = new QLabel(group);
  state_->setWordWrap(true);
  state_->setMinimumHeight(state_->fontMetrics().lineSpacing() * 3);
  column->addWidget(state_);
  connect(record_, &QPushButton::clicked, this, [this] {
    if (const auto c = reportComboValue<cr::AssessmentCategory>(assessment_)) {
      Q_EMIT recordRequested(*c);
    }
  });
  connect(reveal_, &QPushButton::clicked, this, &MammoReadFirstBox::revealRequested);
  showReport(nullptr);
}

void MammoReadFirstBox::showReport(const cr::MammographyReport* report) {
  const bool shown = report != nullptr && report->readFirst().enabled;
  setVisible(shown);
  if (!shown) {
    return;
  }
  const cr::ReadFirstRecord& r = report->readFirst();
  const bool hidden = !report->aiVisible() && !report->locked();
  assessment_->setEnabled(hidden);
  record_->setEnabled(hidden);
  reveal_->setEnabled(hidden && r.ownAssessment.has_value());
  if (r.ownAssessment) {
    setReportCombo(assessment_, r.ownAssessment);
  }
  QString text = tr("Your assessment before the AI: %1").arg(categoryText(r.ownAssessment));
  QString tip = r.ownAssessment ? tr("%1, recorded by %2 at %3")
                                      .arg(QString::fromLatin1(cr::nameOf(*r.ownAssessment)),
                                           QString::fromStdString(r.ownAssessmentUser),
                                           QString::fromStdString(r.ownAssessmentTime))
                                : QString();
  if (hidden) {
    text +=
        QStringLiteral("\n") + tr("The AI's marks and values stay hidden until you reveal them.");
  } else {
    const auto& finalCategory = report->content().assessmentOverall.value();
    text += QStringLiteral("\n") +
            tr("Final assessment: %1 (AI revealed %2)")
                .arg(categoryText(finalCategory), QString::fromStdString(r.revealTime));
    if (finalCategory) {
      tip += QStringLiteral("\n") +
             tr("Final: %1").arg(QString::fromLatin1(cr::nameOf(*finalCategory)));
    }
  }
  state_->setToolTip(tip);
  state_->setText(text);
}

QString MammoReadFirstBox::text() const {
  return state_->text();
}

}  // namespace delineate::app
