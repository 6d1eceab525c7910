#include "app/gui/mammo/MammoFindingsController.h"

#include <QAction>
#include <QCoreApplication>
#include <QFileDialog>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "app/gui/CommandRegistry.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/mammo/MammoFeature.h"
#include "app/gui/shell/JobRunner.h"
#include "core/Error.h"
#include "core/mammo/DemoMammoDetector.h"
#include "core/mammo/ServerFindings.h"
#include "core/report/MammoCadSr.h"
#include "viewers/mammo/MammoReadingView.h"
#include "viewers/mammo/MammoViewport.h"

namespace delineate::app {

namespace cm = core::mammo;

MammoFindingsController::MammoFindingsController(MammoFeature* feature, CommandRegistry* commands,
                                                 JobRunner* jobs, bool interactive)
    : QObject(feature),
      feature_(feature),
      commands_(commands),
      jobs_(jobs),
      interactive_(interactive) {
  connect(commands_->add("mammo.findings.detect", tr("Find (demonstration detector)")),
          &QAction::triggered, this, &MammoFindingsController::detect);
  commands_->action("mammo.findings.detect")
      ->setToolTip(tr("Runs the built-in demonstration detector: bright dense spots, "
                      "calcification clusters, left/right asymmetry. Not a diagnosis."));
  connect(commands_->add("mammo.findings.server", tr("Find with an AI server model…")),
          &QAction::triggered, this, [this] { findWithServer(); });
  connect(commands_->add("mammo.findings.open", tr("Open AI findings…")), &QAction::triggered, this,
          [this] {
            const QString f = QFileDialog::getOpenFileName(
                nullptr, tr("Open AI findings"), {},
                tr("AI findings (*.json *.dcm);;Findings file (*.json);;Mammography CAD SR "
                   "(*.dcm)"));
            if (!f.isEmpty()) {
              openFile(f);
            }
          });
  connect(commands_->add("mammo.findings.save", tr("Save AI findings…")), &QAction::triggered, this,
          [this] {
            const QString f = QFileDialog::getSaveFileName(
                nullptr, tr("Save AI findings"), QStringLiteral("findings.json"),
                tr("Findings file (*.json);;Mammography CAD SR (*.dcm)"));
            if (!f.isEmpty()) {
              saveFile(f);
            }
          });
  connect(
      commands_->add("mammo.findings.heatmapFile", tr("Open heatmap image…")), &QAction::triggered,
      this, [this] {
        const QString f = QFileDialog::getOpenFileName(
            nullptr, tr("Open a probability map as the heatmap"), {},
            tr("Probability maps (*.dcm *.nii *.nii.gz *.nrrd *.nhdr *.mha *.mhd);;All files (*)"));
        if (!f.isEmpty()) {
          openHeatmapFile(f);
        }
      });
  connect(commands_->add("mammo.findings.sendCad", tr("Send CAD report to PACS…")),
          &QAction::triggered, this, [this] { sendCadReport(); });
  connect(commands_->add("mammo.findings.clear", tr("Clear AI findings")), &QAction::triggered,
          this, &MammoFindingsController::clear);
  QAction* heatmap = commands_->add("mammo.findings.heatmap", tr("Heatmap"));
  heatmap->setCheckable(true);
  heatmap->setChecked(true);
  connect(heatmap, &QAction::toggled, this, [this](bool on) {
    auto* state = feature_->view()->state();
    state->setHeatmap(on, state->heatmapOpacity(), state->heatmapThreshold());
  });
  QAction* marks = commands_->add("mammo.findings.marks", tr("Marks"));
  marks->setCheckable(true);
  marks->setChecked(true);
  connect(marks, &QAction::toggled, feature_->view()->state(),
          &viewers::MammoReadingState::setMarksShown);
  QAction* optional = commands_->add("mammo.findings.optionalMarks", tr("Optional CAD marks"));
  optional->setCheckable(true);
  optional->setChecked(false);
  connect(optional, &QAction::toggled, this, [this](bool on) {
    feature_->view()->state()->setOptionalMarksShown(on);
    current_ = -1;
    rebuildOrder();
    refresh();
  });
  connect(commands_->add("mammo.findings.nextMark", tr("Next mark (N)")), &QAction::triggered, this,
          [this] { stepMark(1); });
  connect(commands_->add("mammo.findings.previousMark", tr("Previous mark (Shift+N)")),
          &QAction::triggered, this, [this] { stepMark(-1); });
  connect(feature_->view(), &viewers::MammoReadingView::markStepRequested, this,
          &MammoFindingsController::stepMark);
}

void MammoFindingsController::populateMenu(QMenu* menu) {
  for (const char* id :
       {"mammo.findings.detect", "mammo.findings.server", "mammo.findings.open",
        "mammo.findings.save", "mammo.findings.heatmapFile", "mammo.findings.sendCad",
        "mammo.findings.clear", "mammo.findings.list", "mammo.findings.heatmap",
        "mammo.findings.marks", "mammo.findings.optionalMarks", "mammo.findings.nextMark",
        "mammo.findings.previousMark"}) {
    menu->addAction(commands_->action(QString::fromLatin1(id)));
  }
}

std::vector<cm::DetectorImage> MammoFindingsController::currentImages() const {
  const cm::Hanging& h = feature_->hanging();
  std::vector<cm::DetectorImage> inputs;
  const auto& views = feature_->files().views;
  for (std::size_t i = 0; i < views.size(); ++i) {
    const viewers::MammoImage* image = feature_->image(i);
    if (image != nullptr && views[i].studyUid == h.currentStudy && !views[i].forProcessing) {
      inputs.push_back({image->pyramid->volume(), views[i]});
    }
  }
  return inputs;
}

namespace {

// "<lead>0.81" and ", probability of cancer 0.12" as far as the mark has them.
QString scoreText(const cm::FindingMark& m, const QString& lead) {
  QString text;
  if (m.scored) {
    text = lead + QString::number(m.score, 'f', 2);
  }
  if (m.probability) {
    text +=
        MammoFindingsController::tr(", probability of cancer %1").arg(*m.probability, 0, 'f', 2);
  }
  return text;
}

// Models whose answer can be findings: marks and scores, or a probability image (a 2-D
// segmentation model: 3-D ones are for CT and MR volumes).
bool findingModel(const core::ai::ModelInfo& m) {
  return m.type == "detection" || m.type == "classification" ||
         (m.type == "segmentation" && m.dimension == 2);
}

}  // namespace

QStringList MammoFindingsController::serverModels() const {
  QStringList out;
  if (ai_ == nullptr) {
    return out;
  }
  for (const auto& b : ai_->backends()) {
    if (!b.backend || !b.info || b.url.isEmpty()) {
      continue;
    }
    for (const auto& m : b.info->models) {
      if (findingModel(m)) {
        out << QStringLiteral("%1 · %2").arg(b.name, QString::fromStdString(m.name));
      }
    }
  }
  return out;
}

void MammoFindingsController::findWithServer(const QString& given) {
  const QStringList models = serverModels();
  if (models.isEmpty()) {
    reportError(
        tr("No connected AI server offers a detection or classification model. Connect "
           "one in the AI panel (delineate-server offers mammo_demo_detector)."));
    return;
  }
  QString choice = given;
  if (choice.isEmpty()) {
    if (!interactive_) {
      choice = models.front();
    } else {
      bool ok = false;
      choice = QInputDialog::getItem(nullptr, tr("Find with an AI server model"), tr("Model:"),
                                     models, 0, false, &ok);
      if (!ok) {
        return;
      }
    }
  }
  std::shared_ptr<core::ai::AiBackend> backend;
  std::string model;
  for (const auto& b : ai_->backends()) {
    if (!b.backend || !b.info) {
      continue;
    }
    for (const auto& m : b.info->models) {
      if (findingModel(m) &&
          choice == QStringLiteral("%1 · %2").arg(b.name, QString::fromStdString(m.name))) {
        backend = b.backend;
        model = m.name;
      }
    }
  }
  if (!backend) {
    reportError(tr("%1 is not a model of a connected server.").arg(choice));
    return;
  }
  const std::vector<cm::DetectorImage> inputs = currentImages();
  if (inputs.empty()) {
    reportError(tr("No image of the current study is loaded yet."));
    return;
  }
  jobs_->run<cm::StudyFindings>(
      tr("Asking %1").arg(choice),
      [backend, model, inputs](core::ProgressSink& progress) {
        return cm::findingsFromServer(*backend, model, inputs, progress);
      },
      [this](cm::StudyFindings f) { setFindings(std::move(f)); },
      [this](const QString& error, bool cancelled) {
        if (!cancelled) {
          reportError(tr("The AI server's findings failed:\n%1").arg(error));
        }
      });
}

void MammoFindingsController::detect() {
  const std::vector<cm::DetectorImage> inputs = currentImages();
  if (inputs.empty()) {
    reportError(tr("No image of the current study is loaded yet."));
    return;
  }
  jobs_->run<cm::StudyFindings>(
      tr("Finding (demonstration detector)"),
      [inputs](core::ProgressSink& progress) { return cm::detectDemoFindings(inputs, progress); },
      [this](cm::StudyFindings f) { setFindings(std::move(f)); },
      [this](const QString& error, bool cancelled) {
        if (!cancelled) {
          reportError(tr("The demonstration detector failed:\n%1").arg(error));
        }
      });
}

bool MammoFindingsController::openFile(const QString& file) {
  try {
    if (core::report::isMammographyCadSr(file.toStdString())) {
      core::report::CadSrContent cad = core::report::readMammographyCadSr(file.toStdString());
      setFindings(std::move(cad.findings));
      if (!cad.warnings.empty()) {
        QStringList lines;
        for (const std::string& w : cad.warnings) {
          lines << QString::fromStdString(w);
        }
        reportError(tr("Some findings of %1 are not shown:\n%2").arg(file, lines.join('\n')));
      }
      return true;
    }
    setFindings(cm::readStudyFindings(file.toStdString()));
    return true;
  } catch (const core::Error& e) {
    reportError(tr("Cannot read the findings %1:\n%2").arg(file, QString::fromUtf8(e.what())));
    return false;
  }
}

bool MammoFindingsController::saveFile(const QString& file) {
  if (!findings_) {
    reportError(tr("There are no findings to save."));
    return false;
  }
  try {
    if (file.endsWith(QStringLiteral(".dcm"), Qt::CaseInsensitive)) {
      // The CAD SR refers to the current study's views, and joins that study.
      core::report::CadSrOptions options;
      options.algorithmVersion = QCoreApplication::applicationVersion().toStdString();
      core::report::writeMammographyCadSr(*findings_, currentStudyFiles(), file.toStdString(),
                                          options);
      return true;
    }
    cm::writeStudyFindings(*findings_, file.toStdString());
    return true;
  } catch (const core::Error& e) {
    reportError(tr("Cannot save the findings %1:\n%2").arg(file, QString::fromUtf8(e.what())));
    return false;
  }
}

void MammoFindingsController::setFindings(cm::StudyFindings findings) {
  for (cm::ImageFindings& image : findings.images) {
    image.imageId = canonicalImageId(image.imageId);
  }
  findings_ = std::move(findings);
  current_ = -1;
  rebuildOrder();
  refresh();
  Q_EMIT findingsReplaced();
}

std::vector<std::filesystem::path> MammoFindingsController::currentStudyFiles() const {
  std::vector<std::filesystem::path> files;
  for (const cm::MammoView& v : feature_->files().views) {
    if (v.studyUid == feature_->hanging().currentStudy) {
      files.emplace_back(v.id);
    }
  }
  return files;
}

std::string MammoFindingsController::canonicalImageId(const std::string& imageId) const {
  for (const cm::MammoView& v : feature_->files().views) {
    if (cm::namesImage(v, imageId)) {
      return v.sopInstanceUid.empty() ? v.id : v.sopInstanceUid;
    }
  }
  return imageId;
}

void MammoFindingsController::clear() {
  const bool had = findings_.has_value();
  findings_.reset();
  order_.clear();
  current_ = -1;
  refresh();
  if (had) {
    Q_EMIT findingsReplaced();
  }
}

void MammoFindingsController::rebuildOrder() {
  order_.clear();
  if (!findings_) {
    return;
  }
  const bool optional = feature_->view()->state()->optionalMarksShown();
  for (std::size_t i = 0; i < findings_->images.size(); ++i) {
    for (std::size_t m = 0; m < findings_->images[i].marks.size(); ++m) {
      if (cm::presented(findings_->images[i].marks[m].intent, optional)) {
        order_.push_back({i, m});
      }
    }
  }
  std::stable_sort(order_.begin(), order_.end(), [this](const MarkRef& a, const MarkRef& b) {
    return findings_->images[a.image].marks[a.mark].score >
           findings_->images[b.image].marks[b.mark].score;
  });
}

void MammoFindingsController::refresh() {
  showOn(feature_->view(), feature_->hanging());
  Q_EMIT findingsChanged();
}

void MammoFindingsController::showOn(viewers::MammoReadingView* view, const cm::Hanging&) {
  for (int i = 0; i < view->viewportCount(); ++i) {
    viewers::MammoViewport* port = view->viewport(i);
    const cm::ImageFindings* mine = nullptr;
    std::size_t mineIndex = 0;
    if (findings_ && port->image() && !concealed_) {
      for (std::size_t k = 0; k < findings_->images.size(); ++k) {
        const std::string& id = findings_->images[k].imageId;
        if (id == port->image()->id ||
            (!port->image()->sopInstanceUid.empty() && id == port->image()->sopInstanceUid)) {
          mine = &findings_->images[k];
          mineIndex = k;
        }
      }
    }
    int currentMark = -1;
    if (mine != nullptr && current_ >= 0 &&
        order_[static_cast<std::size_t>(current_)].image == mineIndex) {
      currentMark = static_cast<int>(order_[static_cast<std::size_t>(current_)].mark);
    }
    port->setFindings(mine, currentMark);
  }
  view->setFindingsText(
      concealed_ ? tr("AI hidden: read first, record your assessment, then reveal the AI")
                 : summary());
}

void MammoFindingsController::setConcealed(bool concealed) {
  if (concealed_ != concealed) {
    concealed_ = concealed;
    refresh();
  }
}

QString MammoFindingsController::stepMark(int delta) {
  if (order_.empty() || concealed_) {
    return {};
  }
  const int n = static_cast<int>(order_.size());
  current_ = current_ < 0 ? (delta > 0 ? 0 : n - 1) : ((current_ + delta) % n + n) % n;
  feature_->view()->state()->setCurrentMark(current_);
  showCurrentFrame();
  refresh();
  const MarkRef r = order_[static_cast<std::size_t>(current_)];
  const cm::FindingMark& m = findings_->images[r.image].marks[r.mark];
  return tr("Mark %1 of %2: %3%4")
      .arg(current_ + 1)
      .arg(n)
      .arg(QString::fromStdString(m.kind), scoreText(m, tr(", score ")));
}

bool MammoFindingsController::highlightMark(const std::string& imageId, int markIndex) {
  if (!findings_ || concealed_ || markIndex < 0) {
    return false;
  }
  const std::string canonical = canonicalImageId(imageId);
  for (std::size_t i = 0; i < order_.size(); ++i) {
    const MarkRef r = order_[i];
    if (findings_->images[r.image].imageId == canonical &&
        r.mark == static_cast<std::size_t>(markIndex)) {
      current_ = static_cast<int>(i);
      feature_->view()->state()->setCurrentMark(current_);
      showCurrentFrame();
      refresh();
      return true;
    }
  }
  return false;
}

int MammoFindingsController::hiddenOptionalMarks() const {
  int hidden = 0;
  if (findings_ && !feature_->view()->state()->optionalMarksShown()) {
    for (const cm::ImageFindings& image : findings_->images) {
      hidden += static_cast<int>(std::count_if(
          image.marks.begin(), image.marks.end(),
          [](const cm::FindingMark& m) { return m.intent == cm::RenderingIntent::Optional; }));
    }
  }
  return hidden;
}

QString MammoFindingsController::summary() const {
  if (!findings_) {
    return {};
  }
  QString text = QStringLiteral("AI: %1").arg(QString::fromStdString(findings_->source));
  if (findings_->riskScore) {
    text += findings_->demonstration
                ? tr(" · demonstration score %1").arg(*findings_->riskScore, 0, 'f', 2)
                : tr(" · case score %1").arg(*findings_->riskScore, 0, 'f', 2);
  }
  text += tr(" · %n mark(s)", nullptr, static_cast<int>(order_.size()));
  if (const int hidden = hiddenOptionalMarks(); hidden > 0) {
    text += tr(" (%n optional hidden)", nullptr, hidden);
  }
  if (!findings_->failedAlgorithms.empty()) {
    QStringList names;
    for (const std::string& n : findings_->failedAlgorithms) {
      names << QString::fromStdString(n);
    }
    text += tr(" · CAD INCOMPLETE, failed: %1").arg(names.join(QStringLiteral(", ")));
  } else if (!findings_->processingSummary.empty()) {
    text += QStringLiteral(" · ") + QString::fromStdString(findings_->processingSummary);
  }
  if (current_ >= 0) {
    const MarkRef r = order_[static_cast<std::size_t>(current_)];
    const cm::FindingMark& m = findings_->images[r.image].marks[r.mark];
    text += tr(" · mark %1: %2%3")
                .arg(current_ + 1)
                .arg(QString::fromStdString(m.kind), scoreText(m, QStringLiteral(" ")));
  }
  if (findings_->demonstration) {
    text += tr(" · DEMONSTRATION, NOT A DIAGNOSIS");
  }
  return text;
}

void MammoFindingsController::reportError(const QString& message) {
  if (interactive_) {
    QMessageBox::warning(nullptr, tr("AI findings"), message);
  } else {
    std::fprintf(stderr, "delineate: %s\n", message.toLocal8Bit().constData());
  }
}

}  // namespace delineate::app
