#pragma once
// The reading mode's tool bars: one with the hanging protocol, previous/next layout, fit and 1:1,
// invert, the window presets of the shown images (their files' windows and VOI LUT tables) and
// the reading tools; one, on its own row, with the AI findings controls (detector, open, heatmap
// on/off, opacity and threshold, marks, previous/next mark). Shown only while the reading view is.
#include <QList>

class QMainWindow;
class QToolBar;

namespace delineate::app {

class CommandRegistry;
class MammoFeature;

QList<QToolBar*> createMammoToolBars(QMainWindow* window, MammoFeature* feature,
                                     CommandRegistry* commands);

}  // namespace delineate::app
