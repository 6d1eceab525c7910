#!/usr/bin/env python3
"""Resamples an image (trilinear) and its label map (nearest) to 256x256x256 voxels over the same
field of view, for the 256^3 timing target of the interactive benchmark. numpy and nibabel only.
Usage: resample-to-256.py IMAGE LABELS OUT_IMAGE OUT_LABELS"""
import sys

import nibabel as nib
import numpy as np

N = 256


def positions(n):
    # Where each of the N new voxel centres falls in the old voxel grid (same field of view).
    return (np.arange(N) + 0.5) * n / N - 0.5


def linear(a, axis):
    n = a.shape[axis]
    x = np.clip(positions(n), 0, n - 1)
    lo = np.floor(x).astype(int)
    hi = np.minimum(lo + 1, n - 1)
    w = (x - lo).reshape([-1 if i == axis else 1 for i in range(a.ndim)])
    return np.take(a, lo, axis=axis) * (1 - w) + np.take(a, hi, axis=axis) * w


def nearest(a, axis):
    n = a.shape[axis]
    return np.take(a, np.clip(np.rint(positions(n)).astype(int), 0, n - 1), axis=axis)


def affine_for(old, shape):
    scale = np.diag([s / N for s in shape] + [1.0])
    shift = np.eye(4)
    shift[:3, 3] = [(s / N - 1) / 2 for s in shape]  # the new first centre in old voxels
    return old @ shift @ scale


def main():
    image_path, labels_path, out_image, out_labels = sys.argv[1:5]
    image = nib.load(image_path)
    labels = nib.load(labels_path)
    a = np.asanyarray(image.dataobj).astype(np.float32)
    l = np.asanyarray(labels.dataobj)
    for axis in range(3):
        a = linear(a, axis)
        l = nearest(l, axis)
    affine = affine_for(image.affine, image.shape[:3])
    nib.save(nib.Nifti1Image(np.rint(a).astype(np.int16), affine), out_image)
    nib.save(nib.Nifti1Image(l.astype(np.int16), affine), out_labels)


if __name__ == "__main__":
    main()
