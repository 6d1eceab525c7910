#pragma once
// Zero-copy VTK images over a core::Volume's voxels. The vtkDataArray points at the Volume's
// buffer (SetVoidArray with save=1: VTK never frees it) and holds a reference to the Volume, so
// the voxels live as long as any VTK object uses them. No voxel is ever copied.
#include <vtkSmartPointer.h>

#include "core/model/LabelMap.h"
#include "core/model/Volume.h"

class vtkDataArray;
class vtkImageData;
class vtkMatrix4x4;

namespace delineate::viewers {

// VTK scalar type id (VTK_SHORT, ...) of a core scalar type.
int vtkScalarTypeOf(core::ScalarType type);

// A single-component array over the Volume's voxels, keeping the Volume alive.
vtkSmartPointer<vtkDataArray> makeVtkVoxelArray(const core::VolumePtr& volume);

// The Volume as a vtkImageData in LPS world space: spacing, origin and direction matrix set.
vtkSmartPointer<vtkImageData> makeVtkImage(const core::VolumePtr& volume);

// The same voxels with origin 0 and identity direction: point (i,j,k) sits at
// (i*sx, j*sy, k*sz). Filters and mappers that ignore vtkImageData's direction matrix (reslicing,
// CPU ray casting in VTK 9.1) work in this space; indexSpaceToWorld() maps it to LPS.
vtkSmartPointer<vtkImageData> makeVtkIndexSpaceImage(const core::VolumePtr& volume);

// A colour Volume's R, G, B channels (three components) as an index-space image, zero-copy,
// keeping the Volume alive. The Volume must have colour.
vtkSmartPointer<vtkImageData> makeVtkColourIndexSpaceImage(const core::VolumePtr& volume);

// The label map's voxels as an index-space image (as above), without a copy: the array points at
// the LabelMap's buffer and keeps that buffer alive. Later edits show through; call Modified() on
// the image (or its scalars) after them so that filters reading it re-execute.
vtkSmartPointer<vtkImageData> makeVtkLabelImage(const core::LabelMap& labels);

// 4x4 matrix from index space (above) to LPS world: x = D * q + origin.
vtkSmartPointer<vtkMatrix4x4> indexSpaceToWorld(const core::ImageGeometry& geometry);

// The Volume an array made by makeVtkVoxelArray() keeps alive; null for other arrays.
core::VolumePtr volumeKeptBy(vtkDataArray* array);

}  // namespace delineate::viewers
