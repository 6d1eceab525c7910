#pragma once
// The project's QOpenGLWidget + vtkGenericOpenGLRenderWindow adapter: the only class that touches
// both Qt's and VTK's OpenGL worlds. VTK renders only inside paintGL() into its own framebuffer,
// which is then blitted into the widget's framebuffer (docs/viewers.md, "Rendering rules").
//
// Usage: call VtkOpenGLWidget::prepareApplication() before constructing QApplication, add
// renderers to renderWindow(), and call requestRender() (never renderWindow()->Render()) whenever
// the scene changed.
#include <vtkSmartPointer.h>
#include <QOpenGLWidget>
#include <QString>

class vtkGenericOpenGLRenderWindow;
class vtkGenericRenderWindowInteractor;
class vtkObject;
class QOpenGLContext;
class QSurface;

namespace delineate::viewers {

class VtkOpenGLWidget : public QOpenGLWidget {
  Q_OBJECT

 public:
  // Forces the xcb platform with GLX (Debian's VTK GLEW needs GLX) and sets the default surface
  // format (OpenGL 3.2 core). Must run before QApplication is constructed.
  static void prepareApplication();

  explicit VtkOpenGLWidget(QWidget* parent = nullptr);
  ~VtkOpenGLWidget() override;

  vtkGenericOpenGLRenderWindow* renderWindow() const;
  vtkGenericRenderWindowInteractor* interactor() const;

  // Schedules a VTK render in the next paintGL().
  void requestRender();

  // Number of frames VTK rendered into this widget so far.
  int renderedFrames() const { return renderedFrames_; }
  // GL_RENDERER of the context, empty until the first initializeGL().
  const QString& glRendererName() const { return glRenderer_; }
  // True for Mesa's software rasterisers (llvmpipe, softpipe) and other CPU renderers.
  bool isSoftwareRenderer() const;

 Q_SIGNALS:
  // Emitted after initializeGL() set up VTK on a (new) context.
  void glInitialized();
  // Emitted after each paintGL() in which VTK rendered a frame.
  void frameRendered();

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;
  void showEvent(QShowEvent* event) override;

 private:
  void onWindowEvent(vtkObject* caller, unsigned long eventId, void* callData);
  void onInteractorRender();
  void releaseGraphics();
  void updateVtkSize();
  void clearAlpha();

  vtkSmartPointer<vtkGenericOpenGLRenderWindow> window_;
  vtkSmartPointer<vtkGenericRenderWindowInteractor> interactor_;
  QOpenGLContext* connectedContext_ = nullptr;
  QSurface* surface_ = nullptr;
  QString glRenderer_;
  bool glReady_ = false;
  bool inPaint_ = false;
  bool dirty_ = true;  // a render was requested and not painted yet
  int renderedFrames_ = 0;
};

}  // namespace delineate::viewers
