#!/usr/bin/env python3
"""Writes one NIfTI test case with nibabel, then nibabel's own reading of it as the reference.

Usage: nibabel_cases.py CASE OUTDIR
Writes OUTDIR/image.nii[.gz], OUTDIR/reference.f64 (the values nibabel reads, scaling applied,
float64 little endian, x fastest, then y, then z) and OUTDIR/reference.txt ("z y x", as
pydicom_cases.py writes "frames rows columns"; "t z y x" for a 4-D image).
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


def time_series_4d():
    """A 4-D float image of 4 frames 2.5 s apart (an fMRI or DCE series)."""
    frames = [ramp(np.float32, -5 + 10 * t, 5 + 10 * t) for t in range(4)]
    img = nib.Nifti1Image(np.stack(frames, axis=3), affine())
    img.header.set_xyzt_units("mm", "sec")
    zooms = img.header.get_zooms()
    img.header.set_zooms(zooms[:3] + (2.5,))
    return img, "image.nii.gz"


def oblique_affine():
    """30 degrees about z, then a shift: an oblique but orthogonal grid."""
    c, s = np.cos(np.pi / 6), np.sin(np.pi / 6)
    a = np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
    a[:3, :3] = a[:3, :3] @ np.diag([0.8, 0.9, 2.5])
    a[:3, 3] = [-10, 20, 30]
    return a


def nifti2_int16():
    return nib.Nifti2Image(ramp(np.int16, -1000, 2000), oblique_affine()), "image.nii"


def nifti1_int16():
    """The same image as nifti2_int16, as NIfTI-1: both must give the same grid."""
    return nib.Nifti1Image(ramp(np.int16, -1000, 2000), oblique_affine()), "image.nii"


def nifti2_float_4d_big_endian():
    frames = [ramp(np.float32, t, 10 + t) for t in range(3)]
    data = np.stack(frames, axis=3).astype(">f4")
    img = nib.Nifti2Image(data, oblique_affine())
    img.set_data_dtype(np.dtype(">f4"))
    img.header.set_xyzt_units("mm", "msec")
    img.header.set_zooms(img.header.get_zooms()[:3] + (500.0,))
    return img, "image.nii.gz"


CASES = {
    "float32-nan": float_with_nan,
    "int16-big-endian": int16_big_endian,
    "uint8-scaled": scaled_uint8,
    "float32-4d-time": time_series_4d,
    "nifti2-int16": nifti2_int16,
    "nifti1-int16-oblique": nifti1_int16,
    "nifti2-float32-4d-big-endian": nifti2_float_4d_big_endian,
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
    # x fastest: Fortran order of (x, y, z[, t]) is C order of ([t,] z, y, x).
    ref.transpose(*reversed(range(ref.ndim))).astype("<f8").tofile(
        os.path.join(out, "reference.f64"))
    with open(os.path.join(out, "reference.txt"), "w") as f:
        f.write(" ".join(str(n) for n in reversed(ref.shape)) + "\n")
    with open(os.path.join(out, "image.txt"), "w") as f:
        f.write(name + "\n")
    # The grid as nibabel reads it: the voxel-to-RAS affine, row by row.
    with open(os.path.join(out, "affine.txt"), "w") as f:
        f.write(" ".join("%.9g" % v for v in nib.load(path).affine[:3].ravel()) + "\n")


if __name__ == "__main__":
    main()
