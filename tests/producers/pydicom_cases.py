#!/usr/bin/env python3
"""Writes one DICOM test case with pydicom (and, for some cases, converts it with DCMTK's dcmconv),
then writes pydicom's own decoding of the final file as the reference the reader is compared with.

Usage: pydicom_cases.py CASE OUTDIR
Writes OUTDIR/image.dcm, OUTDIR/reference.f64 (the values pydicom reads, Modality LUT or rescale
or Dose Grid Scaling applied, float64 little endian, frame by frame, row by row) and
OUTDIR/reference.txt ("frames rows columns").
"""
import os
import subprocess
import sys

import numpy as np
import pydicom
from pydicom.dataset import Dataset, FileMetaDataset
from pydicom.pixel_data_handlers.util import apply_modality_lut
from pydicom.sequence import Sequence
from pydicom.uid import ExplicitVRLittleEndian, generate_uid

ROWS, COLS = 6, 5


def base(modality, sop_class, frames=1):
    ds = Dataset()
    meta = FileMetaDataset()
    meta.MediaStorageSOPClassUID = sop_class
    meta.MediaStorageSOPInstanceUID = generate_uid()
    meta.TransferSyntaxUID = ExplicitVRLittleEndian
    ds.file_meta = meta
    ds.is_little_endian = True
    ds.is_implicit_VR = False
    ds.SOPClassUID = sop_class
    ds.SOPInstanceUID = meta.MediaStorageSOPInstanceUID
    ds.PatientName = "Producer^Pydicom"
    ds.PatientID = "PYD-1"
    ds.StudyInstanceUID = generate_uid()
    ds.SeriesInstanceUID = generate_uid()
    ds.FrameOfReferenceUID = generate_uid()
    ds.Modality = modality
    ds.SeriesNumber = 1
    ds.InstanceNumber = 1
    ds.Rows, ds.Columns = ROWS, COLS
    ds.SamplesPerPixel = 1
    ds.PhotometricInterpretation = "MONOCHROME2"
    ds.PixelSpacing = [0.8, 0.7]
    ds.ImageOrientationPatient = [1, 0, 0, 0, 1, 0]
    ds.ImagePositionPatient = [-10, -20, 30]
    ds.SliceThickness = 2.5
    if frames > 1:
        ds.NumberOfFrames = frames
    return ds


def pixels(ds, array, bits, signed):
    ds.BitsAllocated = bits
    ds.BitsStored = bits
    ds.HighBit = bits - 1
    ds.PixelRepresentation = 1 if signed else 0
    ds.PixelData = array.astype(array.dtype.newbyteorder("<")).tobytes()


def ramp(frames, lo, hi, dtype):
    n = frames * ROWS * COLS
    return np.linspace(lo, hi, n).round().astype(dtype).reshape(frames, ROWS, COLS)


def rt_dose():
    frames = 3
    ds = base("RTDOSE", "1.2.840.10008.5.1.4.1.1.481.2", frames)
    ds.GridFrameOffsetVector = [0, 2.5, 5]
    ds.FrameIncrementPointer = 0x3004000C
    ds.DoseUnits = "GY"
    ds.DoseType = "PHYSICAL"
    ds.DoseSummationType = "PLAN"
    ds.DoseGridScaling = "1.5e-05"
    pixels(ds, ramp(frames, 795000, 1254000, np.uint32), 32, False)
    return ds


def ct_signed(frames=1):
    ds = base("CT", "1.2.840.10008.5.1.4.1.1.2")
    ds.RescaleIntercept = "-1024"
    ds.RescaleSlope = "1"
    ds.RescaleType = "HU"
    pixels(ds, ramp(1, -2000, 3000, np.int16), 16, True)
    return ds


def ct_rescale_un():
    ds = ct_signed()
    ds.RescaleSlope = "2.5"
    return ds


def rewrite_as_un(path, tags):
    """Rewrites the explicit-VR little-endian elements `tags` of the file with VR UN, as archives
    that do not know an attribute pass it on (pydicom itself writes the dictionary VR)."""
    data = open(path, "rb").read()
    for group, element in tags:
        key = group.to_bytes(2, "little") + element.to_bytes(2, "little")
        at = data.index(key, 132)
        length = int.from_bytes(data[at + 6:at + 8], "little")
        value = data[at + 8:at + 8 + length]
        un = key + b"UN\0\0" + length.to_bytes(4, "little") + value
        data = data[:at] + un + data[at + 8 + length:]
    open(path, "wb").write(data)


def modality_lut():
    ds = base("OT", "1.2.840.10008.5.1.4.1.1.7")
    stored = ramp(1, 0, 255, np.uint16)
    pixels(ds, stored, 16, False)
    ds.BitsStored = 8
    ds.HighBit = 7
    lut = Dataset()
    # 200 entries from stored value 20: below 20 the first entry, above 219 the last applies.
    lut.LUTDescriptor = [200, 20, 16]
    lut.ModalityLUTType = "US"
    table = (np.arange(200, dtype=np.float64) ** 2 / 10).round().astype(np.uint16)
    lut.add_new(0x00283006, "US", table.tolist())
    ds.ModalityLUTSequence = Sequence([lut])
    return ds


def dce_series(out):
    """A DCE-like MR series: 3 slice positions x 4 time points, one file per slice, written in
    shuffled order; Temporal Position Identifier and Acquisition Time tell the time points apart.
    Returns the reference, frames x slices x rows x columns (slices along the normal)."""
    study, series, frame_of_ref = generate_uid(), generate_uid(), generate_uid()
    order = [(t, z) for t in range(4) for z in range(3)]
    rng = np.random.default_rng(7)
    rng.shuffle(order)
    ref = np.zeros((4, 3, ROWS, COLS))
    folder = os.path.join(out, "series")
    os.makedirs(folder, exist_ok=True)
    for number, (t, z) in enumerate(order):
        ds = base("MR", "1.2.840.10008.5.1.4.1.1.4")
        ds.StudyInstanceUID, ds.SeriesInstanceUID = study, series
        ds.FrameOfReferenceUID = frame_of_ref
        ds.InstanceNumber = number + 1
        ds.ImagePositionPatient = [-10, -20, 30 + 2.5 * z]
        ds.TemporalPositionIdentifier = t + 1
        ds.NumberOfTemporalPositions = 4
        ds.AcquisitionTime = "1200%02d.%06d" % (10 * t, 100000 * z)
        stored = ramp(1, 100 * t + 10 * z, 100 * t + 10 * z + 29, np.uint16)
        pixels(ds, stored, 16, False)
        ref[t, z] = stored[0]
        write(ds, os.path.join(folder, "img%02d.dcm" % number))
    return ref


def parametric_map(double=False):
    """Float (OF) or Double Float (OD) Pixel Data, as Parametric Maps store ADC or T1 values:
    3 frames of an enhanced-style multi-frame object with NaN where the fit failed."""
    frames = 3
    ds = base("MR", "1.2.840.10008.5.1.4.1.1.30", frames)
    ds.GridFrameOffsetVector = [0, 2.5, 5]
    ds.FrameIncrementPointer = 0x3004000C
    values = np.linspace(-1.5e-3, 3.2e-3, frames * ROWS * COLS).reshape(frames, ROWS, COLS)
    values[1, 2, 3] = np.nan
    ds.BitsAllocated = 64 if double else 32
    if double:
        ds.DoubleFloatPixelData = values.astype("<f8").tobytes()
    else:
        ds.FloatPixelData = values.astype("<f4").tobytes()
    return ds


def dx_10bit():
    """A 10-bit radiograph: Bits Stored 10 in 16 allocated, as DX detectors write."""
    ds = base("DX", "1.2.840.10008.5.1.4.1.1.1.1")
    pixels(ds, ramp(1, 0, 1023, np.uint16), 16, False)
    ds.BitsStored = 10
    ds.HighBit = 9
    return ds


def dwi_series(out):
    """Diffusion MR: 3 positions x (b=0 and b=1000 in 3 directions), one file per slice in
    shuffled order, told apart only by Diffusion b-value and Diffusion Gradient Orientation.
    Returns the reference in the reader's frame order: by b-value, then direction."""
    study, series, frame_of_ref = generate_uid(), generate_uid(), generate_uid()
    volumes = [(0, [0.0, 0.0, 0.0]), (1000, [1.0, 0.0, 0.0]), (1000, [0.0, 1.0, 0.0]),
               (1000, [0.0, 0.0, 1.0])]
    ordered = sorted(range(4), key=lambda v: (volumes[v][0], *volumes[v][1]))
    order = [(v, z) for v in range(4) for z in range(3)]
    rng = np.random.default_rng(5)
    rng.shuffle(order)
    ref = np.zeros((4, 3, ROWS, COLS))
    folder = os.path.join(out, "series")
    os.makedirs(folder, exist_ok=True)
    for number, (v, z) in enumerate(order):
        ds = base("MR", "1.2.840.10008.5.1.4.1.1.4")
        ds.StudyInstanceUID, ds.SeriesInstanceUID = study, series
        ds.FrameOfReferenceUID = frame_of_ref
        ds.InstanceNumber = number + 1
        ds.ImagePositionPatient = [-10, -20, 30 + 2.5 * z]
        ds.DiffusionBValue = volumes[v][0]
        ds.DiffusionGradientOrientation = volumes[v][1]
        stored = ramp(1, 100 * v + 10 * z, 100 * v + 10 * z + 29, np.uint16)
        pixels(ds, stored, 16, False)
        ref[ordered.index(v), z] = stored[0]
        write(ds, os.path.join(folder, "img%02d.dcm" % number))
    return ref


def enhanced_dce(out):
    """The same DCE data as dce_series, as one Enhanced MR Image (multi-frame) file: 12 frames in
    shuffled order, each with its Plane Position and Frame Content (Temporal Position Index)
    functional groups; orientation and pixel measures shared. Returns the reference."""
    order = [(t, z) for t in range(4) for z in range(3)]
    rng = np.random.default_rng(11)
    rng.shuffle(order)
    ds = base("MR", "1.2.840.10008.5.1.4.1.1.4.1", len(order))
    for key in ("ImagePositionPatient", "ImageOrientationPatient", "PixelSpacing",
                "SliceThickness"):
        delattr(ds, key)
    shared = Dataset()
    orientation = Dataset()
    orientation.ImageOrientationPatient = [1, 0, 0, 0, 1, 0]
    shared.PlaneOrientationSequence = Sequence([orientation])
    measures = Dataset()
    measures.PixelSpacing = [0.8, 0.7]
    measures.SliceThickness = 2.5
    shared.PixelMeasuresSequence = Sequence([measures])
    ds.SharedFunctionalGroupsSequence = Sequence([shared])
    per_frame = []
    ref = np.zeros((4, 3, ROWS, COLS))
    stack = []
    for t, z in order:
        item = Dataset()
        position = Dataset()
        position.ImagePositionPatient = [-10, -20, 30 + 2.5 * z]
        item.PlanePositionSequence = Sequence([position])
        content = Dataset()
        content.TemporalPositionIndex = t + 1
        content.FrameAcquisitionDateTime = "20260415120%01d%02d.000000" % (t, 10 * z)
        item.FrameContentSequence = Sequence([content])
        per_frame.append(item)
        stored = ramp(1, 100 * t + 10 * z, 100 * t + 10 * z + 29, np.uint16)[0]
        ref[t, z] = stored
        stack.append(stored)
    ds.PerFrameFunctionalGroupsSequence = Sequence(per_frame)
    pixels(ds, np.stack(stack), 16, False)
    folder = os.path.join(out, "enhanced")
    os.makedirs(folder, exist_ok=True)
    write(ds, os.path.join(folder, "image.dcm"))
    return ref


def derived_from(ds, image_uid):
    """Names the mammogram a map was computed from, as derived objects do."""
    source = Dataset()
    source.ReferencedSOPClassUID = "1.2.840.10008.5.1.4.1.1.1.2"
    source.ReferencedSOPInstanceUID = image_uid
    derivation = Dataset()
    derivation.SourceImageSequence = Sequence([source])
    shared = Dataset()
    shared.DerivationImageSequence = Sequence([derivation])
    ds.SharedFunctionalGroupsSequence = Sequence([shared])


def probability_maps(case, out):
    """A mammography AI's probability map of one 5 x 6 image (a blob round pixel (3, 2)), as a
    Parametric Map of float pixel data or as a fractional Segmentation (8-bit, maximum 250);
    the reference is pydicom's reading scaled to 0..1, one value per pixel."""
    rows, cols = 6, 5
    y, x = np.mgrid[0:rows, 0:cols]
    blob = np.exp(-((x - 3.0) ** 2 + (y - 2.0) ** 2) / 4.0)
    if case == "probability-map":
        ds = base("MG", "1.2.840.10008.5.1.4.1.1.30")
        ds.BitsAllocated = 32
        ds.FloatPixelData = blob.astype("<f4").tobytes()
    else:
        ds = base("SEG", "1.2.840.10008.5.1.4.1.1.66.4")
        ds.SegmentationType = "FRACTIONAL"
        ds.SegmentationFractionalType = "PROBABILITY"
        ds.MaximumFractionalValue = 250
        ds.BitsAllocated = 8
        ds.BitsStored = 8
        ds.HighBit = 7
        ds.PixelRepresentation = 0
        ds.PixelData = np.round(blob * 250).astype(np.uint8).tobytes()
    ds.Rows, ds.Columns = rows, cols
    ds.SamplesPerPixel = 1
    ds.PhotometricInterpretation = "MONOCHROME2"
    ds.NumberOfFrames = 1
    derived_from(ds, "1.2.826.0.1.3680043.10.1234.88.1")
    path = os.path.join(out, "image.dcm")
    write(ds, path)
    read = pydicom.dcmread(path)
    ref = read.pixel_array.astype(np.float64).reshape(1, rows, cols)
    if case == "fractional-seg":
        ref = ref / float(read.MaximumFractionalValue)
    return ref


def write(ds, path):
    ds.save_as(path, write_like_original=False)


def rt_dose_big_endian_by_pydicom():
    """pydicom's own big-endian writing: each 32-bit sample as a big-endian 32-bit word."""
    ds = rt_dose()
    ds.file_meta.TransferSyntaxUID = "1.2.840.10008.1.2.2"
    ds.is_little_endian = False
    ds.PixelData = ramp(3, 795000, 1254000, np.uint32).astype(">u4").tobytes()
    return ds


def to_big_endian(path):
    tmp = path + ".le"
    os.replace(path, tmp)
    subprocess.run(["dcmconv", "+tb", tmp, path], check=True)
    os.remove(tmp)


CASES = {
    # name: (dataset builder, convert to Explicit VR Big Endian with dcmconv); the "-j2k-gdcm"
    # cases are then compressed by GDCM's gdcmconv --j2k and decoded by gdcmconv --raw
    "rtdose-u32-le": (rt_dose, False),
    # DCMTK swaps 32-bit Pixel Data (VR OW) as 16-bit words, pydicom as 32-bit words: both exist.
    "rtdose-u32-be-dcmtk": (rt_dose, True),
    "rtdose-u32-be-pydicom": (rt_dose_big_endian_by_pydicom, False),
    "ct-s16-be": (ct_signed, True),
    "ct-rescale-un": (ct_rescale_un, False),
    "modality-lut-sequence": (modality_lut, False),
    "parametric-map-float": (parametric_map, False),
    "ct-s16-j2k-gdcm": (ct_signed, False),
    "ct-rescale-un-j2k-gdcm": (ct_rescale_un, False),
    "dx-10bit-j2k-gdcm": (dx_10bit, False),
    "parametric-map-double": (lambda: parametric_map(True), False),
}


def reference(path, producer_path):
    """pydicom's decoding of producer_path (the producer's own reading of what it wrote)."""
    ds = pydicom.dcmread(producer_path)
    arr = ds.pixel_array.astype(np.float64)
    if "FloatPixelData" in ds or "DoubleFloatPixelData" in ds:
        pass  # no rescale for float pixel data
    elif ds.Modality == "RTDOSE" and "DoseGridScaling" in ds:
        arr = arr * float(ds.DoseGridScaling)
    else:
        arr = apply_modality_lut(ds.pixel_array, ds).astype(np.float64)
    frames = int(getattr(ds, "NumberOfFrames", 1) or 1)
    return arr.reshape(frames, ds.Rows, ds.Columns)


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--list":
        print("\n".join(list(CASES) + ["dce-4d-series", "enhanced-dce-4d", "dwi-directions",
                                        "probability-map", "fractional-seg"]))
        return
    case, out = sys.argv[1], sys.argv[2]
    if case in ("probability-map", "fractional-seg"):
        os.makedirs(out, exist_ok=True)
        ref = probability_maps(case, out)
        ref.astype("<f8").tofile(os.path.join(out, "reference.f64"))
        with open(os.path.join(out, "reference.txt"), "w") as f:
            f.write("%d %d %d\n" % ref.shape)
        return
    if case in ("dce-4d-series", "enhanced-dce-4d", "dwi-directions"):
        ref = {"dce-4d-series": dce_series, "enhanced-dce-4d": enhanced_dce,
               "dwi-directions": dwi_series}[case](out)
        ref.astype("<f8").tofile(os.path.join(out, "reference.f64"))
        with open(os.path.join(out, "reference.txt"), "w") as f:
            f.write("%d %d %d %d\n" % ref.shape)
        with open(os.path.join(out, "image.txt"), "w") as f:
            f.write(("enhanced" if case == "enhanced-dce-4d" else "series") + "\n")
        return
    build, big_endian = CASES[case]
    if case.endswith("-j2k-gdcm"):
        global ROWS, COLS
        ROWS, COLS = 48, 40  # gdcmconv --j2k crashes on images a few pixels wide
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "image.dcm")
    write(build(), path)
    producer_path = path
    if case.startswith("ct-rescale-un"):
        rewrite_as_un(path, [(0x0028, 0x1052), (0x0028, 0x1053)])
    if case.endswith("-j2k-gdcm"):
        # GDCM's JPEG 2000 of the file, and GDCM's own decoding of it as the reference.
        plain = path + ".plain"
        os.replace(path, plain)
        subprocess.run(["gdcmconv", "--j2k", plain, path], check=True)
        os.remove(plain)
        producer_path = os.path.join(out, "gdcm-decoded.dcm")
        subprocess.run(["gdcmconv", "--raw", path, producer_path], check=True)
    if big_endian:
        # DCMTK's own reading of what dcmconv wrote: converted back to little endian by dcmconv.
        to_big_endian(path)
        producer_path = os.path.join(out, "dcmtk-back-to-little-endian.dcm")
        subprocess.run(["dcmconv", "+te", path, producer_path], check=True)
    ref = reference(path, producer_path)
    ref.astype("<f8").tofile(os.path.join(out, "reference.f64"))
    with open(os.path.join(out, "reference.txt"), "w") as f:
        f.write("%d %d %d\n" % ref.shape)


if __name__ == "__main__":
    main()
