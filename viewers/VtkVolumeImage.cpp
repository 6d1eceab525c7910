#include "viewers/VtkVolumeImage.h"

#include <vtkDataArray.h>
#include <vtkImageData.h>
#include <vtkInformation.h>
#include <vtkInformationObjectBaseKey.h>
#include <vtkMatrix3x3.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkObject.h>
#include <vtkObjectFactory.h>
#include <vtkPointData.h>
#include <vtkType.h>

namespace delineate::viewers {

namespace {

// A VTK object that owns a reference to a Volume; stored in the data array's information so the
// Volume lives exactly as long as the array.
class VolumeKeeper : public vtkObject {
 public:
  static VolumeKeeper* New();
  vtkTypeMacro(VolumeKeeper, vtkObject) static vtkInformationObjectBaseKey* KEY();
  core::VolumePtr volume;

 protected:
  VolumeKeeper() = default;
  ~VolumeKeeper() override = default;
};

vtkStandardNewMacro(VolumeKeeper);
vtkInformationKeyMacro(VolumeKeeper, KEY, ObjectBase);

}  // namespace

int vtkScalarTypeOf(core::ScalarType type) {
  switch (type) {
    case core::ScalarType::UInt8:
      return VTK_UNSIGNED_CHAR;
    case core::ScalarType::Int8:
      return VTK_SIGNED_CHAR;
    case core::ScalarType::UInt16:
      return VTK_UNSIGNED_SHORT;
    case core::ScalarType::Int16:
      return VTK_SHORT;
    case core::ScalarType::UInt32:
      return VTK_UNSIGNED_INT;
    case core::ScalarType::Int32:
      return VTK_INT;
    case core::ScalarType::Float32:
      return VTK_FLOAT;
    case core::ScalarType::Float64:
      break;
  }
  return VTK_DOUBLE;
}

vtkSmartPointer<vtkDataArray> makeVtkVoxelArray(const core::VolumePtr& volume) {
  vtkSmartPointer<vtkDataArray> array;
  array.TakeReference(vtkDataArray::CreateDataArray(vtkScalarTypeOf(volume->scalarType())));
  array->SetNumberOfComponents(1);
  array->SetName("voxels");
  // save=1: VTK does not own the memory. VTK's API takes a non-const pointer; nothing in the
  // viewers writes through it (the Volume is immutable).
  array->SetVoidArray(const_cast<void*>(volume->voxels().data()),
                      static_cast<vtkIdType>(volume->voxels().count()), 1);
  vtkNew<VolumeKeeper> keeper;
  keeper->volume = volume;
  array->GetInformation()->Set(VolumeKeeper::KEY(), keeper);
  return array;
}

namespace {

vtkSmartPointer<vtkImageData> makeImage(const core::VolumePtr& volume, bool world) {
  const core::ImageGeometry& g = volume->geometry();
  auto image = vtkSmartPointer<vtkImageData>::New();
  image->SetDimensions(static_cast<int>(g.size[0]), static_cast<int>(g.size[1]),
                       static_cast<int>(g.size[2]));
  image->SetSpacing(g.spacing[0], g.spacing[1], g.spacing[2]);
  if (world) {
    image->SetOrigin(g.origin[0], g.origin[1], g.origin[2]);
    image->SetDirectionMatrix(g.direction.data());
  } else {
    image->SetOrigin(0, 0, 0);
  }
  image->GetPointData()->SetScalars(makeVtkVoxelArray(volume));
  return image;
}

}  // namespace

vtkSmartPointer<vtkImageData> makeVtkImage(const core::VolumePtr& volume) {
  return makeImage(volume, true);
}

vtkSmartPointer<vtkImageData> makeVtkIndexSpaceImage(const core::VolumePtr& volume) {
  return makeImage(volume, false);
}

vtkSmartPointer<vtkImageData> makeVtkColourIndexSpaceImage(const core::VolumePtr& volume) {
  const auto colour = volume->sharedColour();
  vtkSmartPointer<vtkDataArray> array;
  array.TakeReference(vtkDataArray::CreateDataArray(vtkScalarTypeOf(colour->type())));
  array->SetNumberOfComponents(3);
  array->SetName("rgb");
  array->SetVoidArray(const_cast<void*>(colour->data()), static_cast<vtkIdType>(colour->count()),
                      1);
  vtkNew<VolumeKeeper> keeper;
  keeper->volume = volume;
  array->GetInformation()->Set(VolumeKeeper::KEY(), keeper);
  auto image = makeImage(volume, false);
  image->GetPointData()->SetScalars(array);
  return image;
}

vtkSmartPointer<vtkImageData> makeVtkLabelImage(const core::LabelMap& labels) {
  // asVolume() shares the map's voxel buffer; the image keeps that Volume (and so the buffer)
  // alive even when the LabelMap itself goes away first.
  return makeImage(labels.asVolume(), false);
}

vtkSmartPointer<vtkMatrix4x4> indexSpaceToWorld(const core::ImageGeometry& g) {
  auto m = vtkSmartPointer<vtkMatrix4x4>::New();
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      m->SetElement(r, c, g.direction[3 * r + c]);
    }
    m->SetElement(r, 3, g.origin[r]);
  }
  return m;
}

core::VolumePtr volumeKeptBy(vtkDataArray* array) {
  if (array == nullptr) {
    return nullptr;
  }
  auto* keeper = VolumeKeeper::SafeDownCast(array->GetInformation()->Get(VolumeKeeper::KEY()));
  return keeper != nullptr ? keeper->volume : nullptr;
}

}  // namespace delineate::viewers
