#include "app/gui/mammo/MammoStackCommands.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>
#include <QTimer>

#include "app/gui/CommandRegistry.h"
#include "viewers/mammo/MammoReadingView.h"
#include "viewers/mammo/MammoViewport.h"

namespace delineate::app {

namespace cm = core::mammo;

MammoStackCommands::MammoStackCommands(viewers::MammoReadingView* view, CommandRegistry* commands,
                                       QObject* parent)
    : QObject(parent), view_(view), commands_(commands), cine_(new QTimer(this)) {
  viewers::MammoReadingState* state = view_->state();
  auto* modes = new QActionGroup(this);
  const struct {
    const char* id;
    QString text;
    cm::SlabMode mode;
  } modeList[] = {{"mammo.slab.off", tr("Single frame"), cm::SlabMode::Off},
                  {"mammo.slab.average", tr("Average slab"), cm::SlabMode::Average},
                  {"mammo.slab.maximum", tr("Maximum intensity slab"), cm::SlabMode::Maximum}};
  for (const auto& m : modeList) {
    QAction* a = commands_->add(QString::fromLatin1(m.id), m.text);
    a->setCheckable(true);
    a->setChecked(m.mode == state->slabMode());
    modes->addAction(a);
    const cm::SlabMode mode = m.mode;
    connect(a, &QAction::triggered, this, [state, mode] { state->setSlab(mode, state->slabMm()); });
  }
  connect(commands_->add(QStringLiteral("mammo.slab.thicker"), tr("Thicker slab")),
          &QAction::triggered, this, [this] { changeWidth(1.5); });
  connect(commands_->add(QStringLiteral("mammo.slab.thinner"), tr("Thinner slab")),
          &QAction::triggered, this, [this] { changeWidth(1.0 / 1.5); });
  QAction* link =
      commands_->add(QStringLiteral("mammo.stacks.link"), tr("Link stacks of a breast"));
  link->setCheckable(true);
  link->setChecked(state->stacksLinked());
  connect(link, &QAction::toggled, this, [state](bool on) { state->setStacksLinked(on); });
  QAction* cine = commands_->add(QStringLiteral("mammo.stacks.cine"), tr("Cine"));
  cine->setCheckable(true);
  cine_->setInterval(100);
  connect(cine_, &QTimer::timeout, this, &MammoStackCommands::stepCine);
  connect(cine, &QAction::toggled, this, [this](bool on) {
    if (on) {
      cine_->start();
    } else {
      cine_->stop();
    }
  });
}

void MammoStackCommands::populateMenu(QMenu* menu) {
  QMenu* tomo = menu->addMenu(tr("Tomosynthesis"));
  for (const char* id :
       {"mammo.slab.off", "mammo.slab.average", "mammo.slab.maximum", "mammo.slab.thicker",
        "mammo.slab.thinner", "mammo.stacks.link", "mammo.stacks.cine"}) {
    tomo->addAction(commands_->action(QString::fromLatin1(id)));
  }
}

void MammoStackCommands::changeWidth(double factor) {
  viewers::MammoReadingState* state = view_->state();
  state->setSlab(state->slabMode(), state->slabMm() * factor);
}

void MammoStackCommands::stepCine() {
  for (int i = 0; i < view_->viewportCount(); ++i) {
    viewers::MammoViewport* port = view_->viewport(i);
    if (port->frameCount() > 1) {
      port->setFrame((port->frame() + 1) % port->frameCount());
    }
  }
}

bool MammoStackCommands::cineRunning() const {
  return cine_->isActive();
}

}  // namespace delineate::app
