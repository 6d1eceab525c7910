#include "viewers/VtkOpenGLWidget.h"

#include <vtkCallbackCommand.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkOpenGLFramebufferObject.h>
#include <vtkOpenGLState.h>

#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QScreen>
#include <QShowEvent>
#include <QSurfaceFormat>
#include <cstdlib>

namespace delineate::viewers {

void VtkOpenGLWidget::prepareApplication() {
  // Debian's VTK initialises GL through GLEW, which only works on a GLX context; Qt would pick
  // EGL by default on xcb. Wayland or the offscreen platform cannot host VTK at all.
  ::setenv("QT_QPA_PLATFORM", "xcb", 1);
  ::setenv("QT_XCB_GL_INTEGRATION", "xcb_glx", 1);

  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setVersion(3, 2);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
  format.setRedBufferSize(8);
  format.setGreenBufferSize(8);
  format.setBlueBufferSize(8);
  format.setDepthBufferSize(24);
  format.setStencilBufferSize(0);
  format.setAlphaBufferSize(8);
  format.setSamples(0);
  QSurfaceFormat::setDefaultFormat(format);
}

VtkOpenGLWidget::VtkOpenGLWidget(QWidget* parent)
    : QOpenGLWidget(parent),
      window_(vtkSmartPointer<vtkGenericOpenGLRenderWindow>::New()),
      interactor_(vtkSmartPointer<vtkGenericRenderWindowInteractor>::New()) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  setMinimumSize(64, 64);

  // Nothing may render before a context exists, nor outside paintGL().
  window_->SetReadyForRendering(false);
  window_->SetFrameBlitModeToNoBlit();
  window_->SetMultiSamples(0);
  window_->SetForceMaximumHardwareLineWidth(1);
  for (unsigned long id : {vtkCommand::WindowMakeCurrentEvent, vtkCommand::WindowIsCurrentEvent,
                           vtkCommand::WindowFrameEvent, vtkCommand::WindowSupportsOpenGLEvent,
                           vtkCommand::WindowIsDirectEvent}) {
    window_->AddObserver(id, this, &VtkOpenGLWidget::onWindowEvent);
  }

  // The interactor never renders by itself: its render requests become update().
  window_->SetInteractor(interactor_);
  interactor_->SetEnableRender(false);
  interactor_->AddObserver(vtkCommand::RenderEvent, this, &VtkOpenGLWidget::onInteractorRender);
  interactor_->Initialize();
}

VtkOpenGLWidget::~VtkOpenGLWidget() {
  if (connectedContext_ != nullptr) {
    // QOpenGLWidget's destructor destroys the context after this object is gone: release now
    // and make sure the aboutToBeDestroyed handler does not run on a half-destroyed widget.
    disconnect(connectedContext_, nullptr, this, nullptr);
    if (context() != nullptr) {
      makeCurrent();
      releaseGraphics();
      doneCurrent();
    }
  }
  window_->RemoveAllObservers();
  interactor_->RemoveAllObservers();
  window_->SetInteractor(nullptr);
}

vtkGenericOpenGLRenderWindow* VtkOpenGLWidget::renderWindow() const {
  return window_;
}

vtkGenericRenderWindowInteractor* VtkOpenGLWidget::interactor() const {
  return interactor_;
}

void VtkOpenGLWidget::requestRender() {
  dirty_ = true;
  update();
}

void VtkOpenGLWidget::showEvent(QShowEvent* event) {
  QOpenGLWidget::showEvent(event);
  // update() is dropped while hidden, and a re-shown QOpenGLWidget composes its old frame: a
  // view that changed while hidden (another layout) must render again.
  if (dirty_) {
    update();
  }
}

bool VtkOpenGLWidget::isSoftwareRenderer() const {
  const QString r = glRenderer_.toLower();
  return r.contains(QLatin1String("llvmpipe")) || r.contains(QLatin1String("softpipe")) ||
         r.contains(QLatin1String("software")) || r.contains(QLatin1String("swr"));
}

void VtkOpenGLWidget::initializeGL() {
  QOpenGLContext* ctx = context();
  if (ctx != connectedContext_) {
    // A new context (first show, or the widget moved to another top-level window): VTK's GL
    // resources of the old one were released in releaseGraphics().
    if (connectedContext_ != nullptr) {
      disconnect(connectedContext_, nullptr, this, nullptr);
    }
    connectedContext_ = ctx;
    connect(
        ctx, &QOpenGLContext::aboutToBeDestroyed, this,
        [this] {
          makeCurrent();
          releaseGraphics();
          doneCurrent();
          connectedContext_ = nullptr;
        },
        Qt::DirectConnection);
  }
  surface_ = ctx->surface();
  if (auto* f = ctx->functions()) {
    const auto* name = reinterpret_cast<const char*>(f->glGetString(GL_RENDERER));
    glRenderer_ = QString::fromLatin1(name != nullptr ? name : "");
  }

  window_->SetOwnContext(0);
  window_->SetReadyForRendering(true);
  window_->OpenGLInitContext();
  window_->SetReadyForRendering(false);
  window_->SetMapped(1);
  window_->SetIsDirect(1);
  window_->SetSupportsOpenGL(1);
  glReady_ = true;
  updateVtkSize();
  Q_EMIT glInitialized();
}

void VtkOpenGLWidget::resizeGL(int, int) {
  updateVtkSize();
}

void VtkOpenGLWidget::updateVtkSize() {
  const double dpr = devicePixelRatioF();
  const int w = std::max(1, static_cast<int>(width() * dpr + 0.5));
  const int h = std::max(1, static_cast<int>(height() * dpr + 0.5));
  window_->SetDPI(static_cast<int>(72 * dpr + 0.5));
  interactor_->UpdateSize(w, h);  // also resizes the render window
  window_->SetSize(w, h);
  if (const QScreen* s = screen()) {
    window_->SetScreenSize(static_cast<int>(s->size().width() * dpr),
                           static_cast<int>(s->size().height() * dpr));
  }
}

void VtkOpenGLWidget::paintGL() {
  if (!glReady_ || inPaint_) {
    return;
  }
  inPaint_ = true;
  updateVtkSize();

  vtkOpenGLState* state = window_->GetState();
  state->Reset();  // Qt changed GL state behind VTK's cache
  state->Push();
  window_->SetReadyForRendering(true);
  window_->Render();
  window_->SetReadyForRendering(false);
  state->Pop();

  // Rendering may have made another context current (e.g. a progress callback painting).
  makeCurrent();
  auto* f = context()->extraFunctions();
  f->glBindFramebuffer(GL_DRAW_FRAMEBUFFER, defaultFramebufferObject());
  const GLenum buffers[1] = {GL_COLOR_ATTACHMENT0};
  f->glDrawBuffers(1, buffers);
  const GLboolean scissor = f->glIsEnabled(GL_SCISSOR_TEST);
  if (scissor == GL_TRUE) {
    state->vtkglDisable(GL_SCISSOR_TEST);
    f->glDisable(GL_SCISSOR_TEST);
  }
  const int* rb = window_->GetRenderFramebuffer()->GetLastSize();
  const int* size = window_->GetSize();
  window_->BlitDisplayFramebuffer(0, 0, 0, rb[0], rb[1], 0, 0, size[0], size[1],
                                  GL_COLOR_BUFFER_BIT, GL_NEAREST);
  clearAlpha();
  if (scissor == GL_TRUE) {
    state->vtkglEnable(GL_SCISSOR_TEST);
    f->glEnable(GL_SCISSOR_TEST);
  }
  ++renderedFrames_;
  dirty_ = false;
  inPaint_ = false;
  Q_EMIT frameRendered();
}

void VtkOpenGLWidget::clearAlpha() {
  // Qt composes the widget's texture with alpha; anything below 1 would blend with the window
  // behind it (seen with Mesa).
  auto* f = context()->functions();
  GLboolean mask[4];
  GLfloat clear[4];
  f->glGetBooleanv(GL_COLOR_WRITEMASK, mask);
  f->glGetFloatv(GL_COLOR_CLEAR_VALUE, clear);
  f->glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
  f->glClearColor(0, 0, 0, 1);
  f->glClear(GL_COLOR_BUFFER_BIT);
  f->glColorMask(mask[0], mask[1], mask[2], mask[3]);
  f->glClearColor(clear[0], clear[1], clear[2], clear[3]);
}

void VtkOpenGLWidget::releaseGraphics() {
  if (!glReady_) {
    return;
  }
  // Props and the window release their textures, buffers and shaders on this context; they are
  // recreated on the next render after initializeGL() on a new context.
  window_->SetReadyForRendering(true);
  window_->Finalize();
  window_->SetReadyForRendering(false);
  glReady_ = false;
}

void VtkOpenGLWidget::onWindowEvent(vtkObject*, unsigned long eventId, void* callData) {
  switch (eventId) {
    case vtkCommand::WindowMakeCurrentEvent:
      // Not QOpenGLWidget::makeCurrent(): that also binds the widget's framebuffer behind the
      // back of VTK's cached GL state, and VTK would then attach its buffers to Qt's FBO.
      if (context() != nullptr && surface_ != nullptr &&
          QOpenGLContext::currentContext() != context()) {
        context()->makeCurrent(surface_);
      }
      break;
    case vtkCommand::WindowIsCurrentEvent: {
      const QOpenGLContext* current = QOpenGLContext::currentContext();
      *static_cast<bool*>(callData) = current != nullptr && current == context();
      break;
    }
    case vtkCommand::WindowSupportsOpenGLEvent:
      *static_cast<int*>(callData) = 1;
      break;
    case vtkCommand::WindowIsDirectEvent:
      *static_cast<int*>(callData) = 1;
      break;
    case vtkCommand::WindowFrameEvent:
      // VTK finished a frame; outside paintGL that only happens through a render we did not
      // ask for, so show it with the next paint.
      if (!inPaint_) {
        requestRender();
      }
      break;
    default:
      break;
  }
}

void VtkOpenGLWidget::onInteractorRender() {
  update();
}

}  // namespace delineate::viewers
