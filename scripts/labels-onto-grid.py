#!/usr/bin/env python3
"""Resamples a label map (nearest neighbour, by world position through both files' affines) onto
another image's voxel grid, for benchmarks that pair an atlas with a finer image of the same
brain. numpy and nibabel only. Usage: labels-onto-grid.py LABELS IMAGE OUT_LABELS"""
import sys

import nibabel as nib
import numpy as np


def main():
    labels_path, image_path, out_path = sys.argv[1:4]
    labels = nib.load(labels_path)
    image = nib.load(image_path)
    values = np.asarray(labels.dataobj)
    out = np.zeros(image.shape[:3], dtype=np.int16)
    to_labels = np.linalg.inv(labels.affine) @ image.affine
    # One slice at a time keeps the index arrays small on a 35-million-voxel image.
    j, i = np.meshgrid(np.arange(image.shape[1]), np.arange(image.shape[0]), indexing="ij")
    for k in range(image.shape[2]):
        ijk = np.stack([i.ravel(), j.ravel(), np.full(i.size, k), np.ones(i.size)])
        src = np.rint(to_labels[:3] @ ijk).astype(int)
        inside = np.all((src >= 0) & (src < np.array(values.shape[:3])[:, None]), axis=0)
        plane = np.zeros(i.size, dtype=np.int16)
        plane[inside] = values[src[0, inside], src[1, inside], src[2, inside]]
        out[:, :, k] = plane.reshape(j.shape).T
    nib.save(nib.Nifti1Image(out, image.affine), out_path)


if __name__ == "__main__":
    main()
