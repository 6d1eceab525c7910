#include "app/gui/mammo/MammoFindingEditor.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "app/gui/reports/ReportCombos.h"

namespace delineate::app {

namespace cr = core::report;

namespace {

// A field set to the editor's value: the reader's own entry (clear() when "(none)").
template <class T>
void assign(cr::ReportField<T>& field, const std::optional<T>& value) {
  if (field.value() == value) {
    return;
  }
  if (value) {
    field.set(*value);
  } else {
    field.clear();
  }
}

QString findingTitle(const cr::MammoFinding& f) {
  QStringList parts{QString::fromStdString(cr::findingName(f.id))};
  parts << (f.kind.value() ? QString::fromLatin1(cr::nameOf(*f.kind.value())) : QObject::tr("?"));
  if (f.laterality.value()) {
    parts << QString::fromLatin1(cr::keyOf(*f.laterality.value()));
  }
  if (f.clockPosition.value()) {
    parts << QObject::tr("%1 o'clock").arg(*f.clockPosition.value());
  }
  if (f.link.kind == cr::ReportLink::Kind::None) {
    parts << QObject::tr("reader's own");
  }
  bool proposed = false;
  cr::eachFindingField(f, [&](const char*, const auto& field) {
    proposed = proposed || field.provenance() == cr::Provenance::AiProposed;
  });
  return parts.join(QStringLiteral(" · ")) + (proposed ? QObject::tr("  (AI proposals)") : "");
}

}  // namespace

MammoFindingEditor::MammoFindingEditor(Change change, QWidget* parent)
    : QWidget(parent), change_(std::move(change)) {
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(0, 0, 0, 0);
  list_ = new QListWidget(this);
  list_->setObjectName(QStringLiteral("reportFindingList"));
  column->addWidget(list_, 1);
  auto combo = [this](const char* name) {
    auto* c = new QComboBox(this);
    c->setObjectName(QString::fromLatin1(name));
    // Long lexicon names must not widen the dock: the combo shows what fits, the list all.
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(6);
    return c;
  };
  kind_ = combo("findingKind");
  fillReportCombo<cr::FindingKind>(kind_);
  laterality_ = combo("findingLaterality");
  fillReportCombo<core::mammo::Laterality>(laterality_);
  clock_ = combo("findingClock");
  clock_->addItem(tr("(none)"), 0);
  for (int h = 1; h <= 12; ++h) {
    clock_->addItem(tr("%1 o'clock").arg(h), h);
  }
  depth_ = combo("findingDepth");
  fillReportCombo<cr::Depth>(depth_);
  massShape_ = combo("massShape");
  fillReportCombo<cr::MassShape>(massShape_);
  massMargin_ = combo("massMargin");
  fillReportCombo<cr::MassMargin>(massMargin_);
  massDensity_ = combo("massDensity");
  fillReportCombo<cr::MassDensity>(massDensity_);
  morphology_ = combo("calcificationMorphology");
  fillReportCombo<cr::CalcificationMorphology>(morphology_);
  distribution_ = combo("calcificationDistribution");
  fillReportCombo<cr::CalcificationDistribution>(distribution_);
  description_ = new QLineEdit(this);
  description_->setObjectName(QStringLiteral("findingDescription"));
  auto* form = new QFormLayout;
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  auto* where = new QHBoxLayout;
  where->addWidget(laterality_);
  where->addWidget(clock_);
  where->addWidget(depth_);
  form->addRow(tr("Kind"), kind_);
  form->addRow(tr("Location"), where);
  auto* mass = new QHBoxLayout;
  mass->addWidget(massShape_);
  mass->addWidget(massMargin_);
  mass->addWidget(massDensity_);
  form->addRow(tr("Mass"), mass);
  auto* calc = new QHBoxLayout;
  calc->addWidget(morphology_);
  calc->addWidget(distribution_);
  form->addRow(tr("Calcifications"), calc);
  form->addRow(tr("Description"), description_);
  column->addLayout(form);
  auto* buttons = new QHBoxLayout;
  accept_ = new QPushButton(tr("Accept AI values"), this);
  remove_ = new QPushButton(tr("Remove finding"), this);
  add_ = new QPushButton(tr("Add finding"), this);
  accept_->setToolTip(tr("Accept this finding's AI proposals unchanged"));
  add_->setToolTip(tr("Add a finding of your own"));
  for (QPushButton* b : {accept_, remove_, add_}) {
    buttons->addWidget(b);
  }
  column->addLayout(buttons);

  connect(list_, &QListWidget::currentRowChanged, this, [this] {
    if (!showing_) {
      showSelected();
      Q_EMIT findingSelected(selectedFinding());
    }
  });
  for (QComboBox* c : {kind_, laterality_, clock_, depth_, massShape_, massMargin_, massDensity_,
                       morphology_, distribution_}) {
    connect(c, &QComboBox::activated, this, &MammoFindingEditor::applyEditors);
  }
  connect(description_, &QLineEdit::editingFinished, this, [this] {
    if (!showing_) {
      applyEditors();
    }
  });
  connect(accept_, &QPushButton::clicked, this, [this] {
    editSelected([](cr::MammoFinding& f) {
      cr::eachFindingField(f, [](const char*, auto& field) {
        if (field.provenance() == cr::Provenance::AiProposed) {
          field.accept();
        }
      });
    });
  });
  connect(remove_, &QPushButton::clicked, this, [this] {
    const int id = selectedFinding();
    if (id != 0) {
      change_([id](cr::MammographyContent& c) {
        c.removeFinding(id);
        for (cr::MammoFinding& f : c.findings) {
          if (f.otherViewFinding == id) {
            f.otherViewFinding = 0;
          }
        }
      });
    }
  });
  connect(add_, &QPushButton::clicked, this, [this] {
    int added = 0;
    if (change_([&added](cr::MammographyContent& c) {
          cr::MammoFinding& f = c.addFinding();
          f.kind = cr::ReportField<cr::FindingKind>::manual(cr::FindingKind::Mass);
          added = f.id;
        })) {
      selectFinding(added);
    }
  });
  setContent(nullptr, false);
}

void MammoFindingEditor::setContent(const cr::MammographyContent* content, bool editable) {
  const int selected = selectedFinding();
  content_ = content;
  editable_ = editable;
  showing_ = true;
  list_->clear();
  if (content_ != nullptr) {
    for (const cr::MammoFinding& f : content_->findings) {
      auto* item = new QListWidgetItem(findingTitle(f), list_);
      item->setData(Qt::UserRole, f.id);
    }
  }
  if (!selectFinding(selected) && list_->count() > 0) {
    list_->setCurrentRow(0);
  }
  showing_ = false;
  add_->setEnabled(content_ != nullptr && editable_);
  showSelected();
}

int MammoFindingEditor::selectedFinding() const {
  const QListWidgetItem* item = list_->currentItem();
  return item == nullptr ? 0 : item->data(Qt::UserRole).toInt();
}

bool MammoFindingEditor::selectFinding(int id) {
  for (int i = 0; i < list_->count(); ++i) {
    if (list_->item(i)->data(Qt::UserRole).toInt() == id) {
      list_->setCurrentRow(i);
      return true;
    }
  }
  return false;
}

void MammoFindingEditor::showSelected() {
  const cr::MammoFinding* f = nullptr;
  if (content_ != nullptr) {
    for (const cr::MammoFinding& x : content_->findings) {
      f = x.id == selectedFinding() ? &x : f;
    }
  }
  showing_ = true;
  const std::optional<cr::FindingKind> kind = f ? f->kind.value() : std::nullopt;
  setReportCombo(kind_, kind);
  setReportCombo(laterality_, f ? f->laterality.value() : std::nullopt);
  clock_->setCurrentIndex(f && f->clockPosition.value() ? *f->clockPosition.value() : 0);
  setReportCombo(depth_, f ? f->depth.value() : std::nullopt);
  setReportCombo(massShape_, f ? f->massShape.value() : std::nullopt);
  setReportCombo(massMargin_, f ? f->massMargin.value() : std::nullopt);
  setReportCombo(massDensity_, f ? f->massDensity.value() : std::nullopt);
  setReportCombo(morphology_, f ? f->calcificationMorphology.value() : std::nullopt);
  setReportCombo(distribution_, f ? f->calcificationDistribution.value() : std::nullopt);
  description_->setText(f ? QString::fromStdString(f->description.value().value_or("")) : "");
  showing_ = false;
  const bool on = f != nullptr && editable_;
  for (QWidget* w :
       std::initializer_list<QWidget*>{kind_, laterality_, clock_, depth_, description_, remove_}) {
    w->setEnabled(on);
  }
  const bool mass = kind == cr::FindingKind::Mass;
  const bool calcification = kind == cr::FindingKind::Calcification;
  for (QComboBox* c : {massShape_, massMargin_, massDensity_}) {
    c->setEnabled(on && mass);
  }
  for (QComboBox* c : {morphology_, distribution_}) {
    c->setEnabled(on && calcification);
  }
  bool proposed = false;
  if (f != nullptr) {
    cr::eachFindingField(*f, [&](const char*, const auto& field) {
      proposed = proposed || field.provenance() == cr::Provenance::AiProposed;
    });
  }
  accept_->setEnabled(on && proposed);
}

void MammoFindingEditor::editSelected(const std::function<void(cr::MammoFinding&)>& edit) {
  const int id = selectedFinding();
  if (id == 0 || !editable_) {
    return;
  }
  change_([id, &edit](cr::MammographyContent& c) {
    if (cr::MammoFinding* f = c.finding(id)) {
      edit(*f);
    }
  });
}

void MammoFindingEditor::applyEditors() {
  const auto kind = reportComboValue<cr::FindingKind>(kind_);
  const auto laterality = reportComboValue<core::mammo::Laterality>(laterality_);
  const int hour = clock_->currentData().toInt();
  const auto clock = hour > 0 ? std::optional<int>(hour) : std::nullopt;
  const auto depth = reportComboValue<cr::Depth>(depth_);
  const auto shape = reportComboValue<cr::MassShape>(massShape_);
  const auto margin = reportComboValue<cr::MassMargin>(massMargin_);
  const auto density = reportComboValue<cr::MassDensity>(massDensity_);
  const auto morphology = reportComboValue<cr::CalcificationMorphology>(morphology_);
  const auto distribution = reportComboValue<cr::CalcificationDistribution>(distribution_);
  const std::string text = description_->text().toStdString();
  editSelected([&](cr::MammoFinding& f) {
    assign(f.kind, kind);
    assign(f.laterality, laterality);
    assign(f.clockPosition, clock);
    assign(f.depth, depth);
    // Descriptors of another kind do not apply: only those of the finding's kind are kept.
    assign(f.massShape, kind == cr::FindingKind::Mass ? shape : std::nullopt);
    assign(f.massMargin, kind == cr::FindingKind::Mass ? margin : std::nullopt);
    assign(f.massDensity, kind == cr::FindingKind::Mass ? density : std::nullopt);
    const bool calc = kind == cr::FindingKind::Calcification;
    assign(f.calcificationMorphology, calc ? morphology : std::nullopt);
    assign(f.calcificationDistribution, calc ? distribution : std::nullopt);
    assign(f.description, text.empty() && !f.description.value()
                              ? std::optional<std::string>()
                              : std::optional<std::string>(text));
  });
}

}  // namespace delineate::app
