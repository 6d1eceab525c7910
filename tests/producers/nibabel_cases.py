#!/usr/bin/env python3
"""Writes one NIfTI test case with nibabel, then nibabel's own reading of it as the reference.

Usage: nibabel_cases.py CASE OUTDIR
Writes OUTDIR/image.nii[.gz], OUTDIR/reference.f64 (the values nibabel reads, scaling applied,
float64 little endian, x fastest, then y, then z) and OUTDIR/reference.txt ("z y x", as
pydicom_cases.py writes "frames rows columns").
"""
import os
import sys

import nibabel as nib
import numpy as np

SHAPE = (7, 6, 5)  # x, y, z


def ramp(dtype, lo, hi):
    n = int(np.prod(SHAPE))
    return np.linspace(lo, hi, n).reshape(SHAPE, order="F").astype(dtype)


def affine():
    a = np.diag([0.8, 0.9, 2.5, 1.0])
    a[:3, 3] = [-10, 20, 30]
    return a


def float_with_nan():
    data = ramp(np.float32, -5, 5)
    data[1, 2, 3] = np.nan
    data[6, 5, 4] = np.nan
    return nib.Nifti1Image(data, affine()), "image.nii.gz"


def int16_big_endian():
    data = ramp(np.dtype(">i2"), -1000, 2000)
    img = nib.Nifti1Image(data, affine())
    img.set_data_dtype(np.dtype(">i2"))
    return img, "image.nii"


def scaled_uint8():
    img = nib.Nifti1Image(ramp(np.uint8, 0, 250), affine())
    img.header.set_slope_inter(0.5, -3)
    return img, "image.nii.gz"


CASES = {
    "float32-nan": float_with_nan,
    "int16-big-endian": int16_big_endian,
    "uint8-scaled": scaled_uint8,
}


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--list":
        print("\n".join(CASES))
        return
    case, out = sys.argv[1], sys.argv[2]
    img, name = CASES[case]()
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, name)
    nib.save(img, path)
    ref = np.asarray(nib.load(path).get_fdata(), dtype=np.float64)
    # x fastest: Fortran order of (x, y, z) is C order of (z, y, x).
    ref.transpose(2, 1, 0).astype("<f8").tofile(os.path.join(out, "reference.f64"))
    with open(os.path.join(out, "reference.txt"), "w") as f:
        f.write("%d %d %d\n" % (ref.shape[2], ref.shape[1], ref.shape[0]))
    with open(os.path.join(out, "image.txt"), "w") as f:
        f.write(name + "\n")


if __name__ == "__main__":
    main()
