#pragma once
// The mammography reading layout: a grid of MammoViewports sharing one MammoReadingState, a
// banner naming what the hanging could not do (a missing view, duplicates, processing-only
// images), and a findings line (AI risk score, "demonstration, not a diagnosis"). Keys while it
// has focus: F fit, 1 one-to-one, I invert, P pan, W window/level, M magnifier, R ruler,
// E ellipse, Delete removes the last measurement of the viewport under the pointer, Escape back
// to pan; Page Down / Space and Page Up / Shift+Space ask for the next and previous layout of the
// reading sequence, N / Shift+N for the next and previous AI mark. These keys win over the
// window's shortcuts while the view has focus (the slice tools use some of the same letters).
#include <QStringList>
#include <QWidget>
#include <vector>

#include "core/mammo/HangingProtocol.h"
#include "viewers/mammo/MammoReadingState.h"

class QGridLayout;
class QLabel;

namespace delineate::viewers {

class MammoViewport;

class MammoReadingView : public QWidget {
  Q_OBJECT

 public:
  explicit MammoReadingView(QWidget* parent = nullptr);

  MammoReadingState* state() const { return state_; }
  // A rows x columns grid; walls[i] is the edge viewport i's chest wall goes against.
  void setGrid(int rows, int columns, const std::vector<core::mammo::ChestWall>& walls);
  int viewportCount() const { return static_cast<int>(viewports_.size()); }
  MammoViewport* viewport(int index) const {
    return viewports_.at(static_cast<std::size_t>(index));
  }
  int rows() const { return rows_; }
  int columns() const { return columns_; }

  void setNotes(const QStringList& notes);
  QStringList notes() const { return notes_; }
  // The findings line under the grid; empty hides it.
  void setFindingsText(const QString& text);
  QString findingsText() const;

  // Linked stacks: the other tomosynthesis stacks of `source`'s breast (its other view, the
  // prior) go to the same relative depth (frame / (frames - 1)), when the state links stacks.
  void followStack(const MammoViewport* source);

  // One-to-one: one image pixel per screen pixel (of the first image's spacing).
  void zoomOneToOne();

 Q_SIGNALS:
  void pointerMoved(const QString& text);
  void layoutStepRequested(int delta);
  void markStepRequested(int delta);

 protected:
  bool event(QEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;

 private:
  MammoReadingState* state_;
  QGridLayout* grid_;
  QLabel* banner_;
  QLabel* findings_;
  std::vector<MammoViewport*> viewports_;
  QStringList notes_;
  int rows_ = 0;
  int columns_ = 0;
};

}  // namespace delineate::viewers
