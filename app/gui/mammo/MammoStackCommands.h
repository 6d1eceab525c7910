#pragma once
// The reading view's tomosynthesis commands (Mammography > Tomosynthesis): slab mode (frame,
// average, maximum intensity) and width ("mammo.slab.off", "mammo.slab.average",
// "mammo.slab.maximum", "mammo.slab.thicker", "mammo.slab.thinner"), linked scrolling of the
// stacks of one breast ("mammo.stacks.link") and cine ("mammo.stacks.cine": every stack steps one
// frame at a time, back to the first after the last, 10 frames a second).
#include <QObject>

class QMenu;
class QTimer;

namespace delineate::viewers {
class MammoReadingView;
}

namespace delineate::app {

class CommandRegistry;

class MammoStackCommands : public QObject {
  Q_OBJECT

 public:
  MammoStackCommands(viewers::MammoReadingView* view, CommandRegistry* commands,
                     QObject* parent = nullptr);

  void populateMenu(QMenu* menu);
  // One cine step: every stack one frame on (wrapping), linked or not.
  void stepCine();
  bool cineRunning() const;

 private:
  void changeWidth(double factor);

  viewers::MammoReadingView* view_;
  CommandRegistry* commands_;
  QTimer* cine_;
};

}  // namespace delineate::app
