#include "core/io/ItkInit.h"

#include <itkImage.h>
#include <itkImageIOFactory.h>
#include <itkMultiThreaderBase.h>
#include <itkObjectFactoryBase.h>

#include <mutex>

namespace delineate::core {

void ensureItkInitialized() {
  static std::once_flag once;
  std::call_once(once, [] {
    // The factory list (ObjectFactoryBase::Initialize registers the IO factories), the global
    // thread pool and the singleton index, each touched once on this thread.
    itk::ObjectFactoryBase::GetRegisteredFactories();
    itk::ImageIOFactory::CreateImageIO("delineate-probe.nii.gz", itk::IOFileModeEnum::WriteMode);
    itk::MultiThreaderBase::New();
    auto image = itk::Image<short, 3>::New();
    image->ShouldIReleaseData();
  });
}

}  // namespace delineate::core
