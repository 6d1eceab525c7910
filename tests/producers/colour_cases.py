#!/usr/bin/env python3
"""Writes one colour DICOM test case with another producer (DCMTK's img2dcm, dcmcjpeg, dcmcrle,
dcmcjpls and dcmconv; GDCM's gdcmconv; pydicom; or a file Debian's python3-pydicom ships), and
that producer's own decoding of it as the reference the reader is compared with.

Usage: colour_cases.py CASE OUTDIR   |   colour_cases.py --list
Writes OUTDIR/image.dcm, OUTDIR/reference.u32 (R, G, B of every pixel, uint32 little endian,
frame by frame, row by row) and OUTDIR/reference.txt ("frames rows columns"); for cine loops also
OUTDIR/frame-time.txt (ms).
"""
import os
import shutil
import struct
import subprocess
import sys

import numpy as np
import pydicom
from pydicom.dataset import Dataset, FileMetaDataset
from pydicom.pixel_data_handlers.util import apply_color_lut, convert_color_space
from pydicom.uid import ExplicitVRLittleEndian, generate_uid

PYDICOM_FILES = "/usr/lib/python3/dist-packages/pydicom/data/test_files"
PALETTES = "/usr/lib/python3/dist-packages/pydicom/data/palettes"
ROWS, COLS = 24, 32


def run(*args):
    subprocess.run(list(args), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def scene(frames=1):
    """A smooth colour scene with edges (what JPEG sees in ultrasound and screenshots)."""
    y, x = np.mgrid[0:ROWS, 0:COLS]
    out = np.zeros((frames, ROWS, COLS, 3), np.uint8)
    for f in range(frames):
        out[f, ..., 0] = (8 * x + 10 * f) % 256
        out[f, ..., 1] = (10 * y + 40) % 256
        out[f, ..., 2] = np.where((x - 12 - f) ** 2 + (y - 10) ** 2 < 40, 230, 30)
    return out


def write_bmp(rgb, path):
    """A 24-bit BMP (bottom-up rows, BGR, rows padded to 4 bytes): img2dcm's input."""
    rows, cols, _ = rgb.shape
    stride = (3 * cols + 3) // 4 * 4
    body = b"".join(rgb[r, :, ::-1].tobytes().ljust(stride, b"\0") for r in range(rows - 1, -1, -1))
    header = struct.pack("<2sIHHI", b"BM", 54 + len(body), 0, 0, 54)
    info = struct.pack("<IiiHHIIiiII", 40, cols, rows, 1, 24, 0, len(body), 2835, 2835, 0, 0)
    with open(path, "wb") as f:
        f.write(header + info + body)


def img2dcm_rgb(out):
    """DCMTK's img2dcm: an uncompressed RGB secondary capture from a BMP."""
    bmp = os.path.join(out, "scene.bmp")
    write_bmp(scene()[0], bmp)
    path = os.path.join(out, "img2dcm.dcm")
    run("img2dcm", "-i", "BMP", bmp, path)
    return path


def base(modality="US", frames=1):
    ds = Dataset()
    meta = FileMetaDataset()
    meta.MediaStorageSOPClassUID = "1.2.840.10008.5.1.4.1.1.6.1" if modality == "US" else \
        "1.2.840.10008.5.1.4.1.1.7"
    if frames > 1:
        meta.MediaStorageSOPClassUID = "1.2.840.10008.5.1.4.1.1.3.1"  # US multi-frame
    meta.MediaStorageSOPInstanceUID = generate_uid()
    meta.TransferSyntaxUID = ExplicitVRLittleEndian
    ds.file_meta = meta
    ds.is_little_endian = True
    ds.is_implicit_VR = False
    ds.SOPClassUID = meta.MediaStorageSOPClassUID
    ds.SOPInstanceUID = meta.MediaStorageSOPInstanceUID
    ds.PatientName = "Producer^Colour"
    ds.PatientID = "COL-1"
    ds.StudyInstanceUID = generate_uid()
    ds.SeriesInstanceUID = generate_uid()
    ds.Modality = modality
    ds.SeriesNumber = 1
    ds.InstanceNumber = 1
    ds.Rows, ds.Columns = ROWS, COLS
    if frames > 1:
        ds.NumberOfFrames = frames
    return ds


def rgb_pixels(ds, rgb, planar=False, photometric="RGB"):
    ds.SamplesPerPixel = 3
    ds.PhotometricInterpretation = photometric
    ds.PlanarConfiguration = 1 if planar else 0
    ds.BitsAllocated = ds.BitsStored = 8
    ds.HighBit = 7
    ds.PixelRepresentation = 0
    data = np.ascontiguousarray(rgb)
    if planar:
        data = np.ascontiguousarray(np.moveaxis(rgb, -1, 1))  # frame, channel, row, column
    ds.PixelData = data.tobytes()


def save(ds, path):
    ds.save_as(path, write_like_original=False)
    return path


def pydicom_ybr_planar(out):
    ds = base("OT")
    ybr = convert_color_space(scene()[0], "RGB", "YBR_FULL")
    rgb_pixels(ds, ybr[np.newaxis], planar=True, photometric="YBR_FULL")
    return save(ds, os.path.join(out, "ybr.dcm"))


def pydicom_cine(out):
    """A multi-frame ultrasound loop at 25 frames a second (Frame Time 40 ms)."""
    ds = base("US", frames=5)
    ds.FrameTime = "40"
    ds.FrameIncrementPointer = 0x00181063
    rgb_pixels(ds, scene(5))
    with open(os.path.join(out, "frame-time.txt"), "w") as f:
        f.write("40\n")
    return save(ds, os.path.join(out, "cine.dcm"))


def palette_image(out, palette_file, bits, segmented_ok=True):
    """A PALETTE COLOR image whose tables come from one of the DICOM standard's palettes."""
    ds = base("OT")
    pal = pydicom.dcmread(os.path.join(PALETTES, palette_file))
    ds.SamplesPerPixel = 1
    ds.PhotometricInterpretation = "PALETTE COLOR"
    for colour in ("Red", "Green", "Blue"):
        for key in ("PaletteColorLookupTableDescriptor", "PaletteColorLookupTableData",
                    "SegmentedPaletteColorLookupTableData"):
            if key.startswith("Segmented"):
                name = "Segmented" + colour + key[len("Segmented"):]
            else:
                name = colour + key
            if name in pal:
                ds[name] = pal[name]
    y, x = np.mgrid[0:ROWS, 0:COLS]
    index = ((x * 8 + y * 3) % 256).astype(np.uint8)
    ds.BitsAllocated = ds.BitsStored = 8
    ds.HighBit = 7
    ds.PixelRepresentation = 0
    ds.PixelData = index.tobytes()
    return save(ds, os.path.join(out, "palette.dcm"))


def palette_16bit(out):
    """16-bit indices into 16-bit tables (ultrasound systems write these), first mapped 100."""
    ds = base("US")
    ds.SamplesPerPixel = 1
    ds.PhotometricInterpretation = "PALETTE COLOR"
    entries = 1000
    ramp = np.linspace(0, 65535, entries).astype(np.uint16)
    for colour, table in (("Red", ramp), ("Green", ramp[::-1].copy()),
                          ("Blue", (ramp // 2).astype(np.uint16))):
        ds[colour + "PaletteColorLookupTableDescriptor"] = pydicom.DataElement(
            getattr(pydicom.datadict.tag_for_keyword(colour + "PaletteColorLookupTableDescriptor"),
                    "real", None) or pydicom.datadict.tag_for_keyword(
                colour + "PaletteColorLookupTableDescriptor"), "US", [entries, 100, 16])
        ds[colour + "PaletteColorLookupTableData"] = pydicom.DataElement(
            pydicom.datadict.tag_for_keyword(colour + "PaletteColorLookupTableData"), "OW",
            table.tobytes())
    y, x = np.mgrid[0:ROWS, 0:COLS]
    index = (x * 40 + y * 3).astype(np.uint16)  # 0..1309: below 100 and past the table too
    ds.BitsAllocated = ds.BitsStored = 16
    ds.HighBit = 15
    ds.PixelRepresentation = 0
    ds.PixelData = index.tobytes()
    return save(ds, os.path.join(out, "palette16.dcm"))


def dcmtk(tool, *options):
    """An img2dcm RGB image compressed (or converted) by a DCMTK tool."""
    def build(out):
        src = img2dcm_rgb(out)
        path = os.path.join(out, tool + ".dcm")
        run(tool, *options, src, path)
        return path
    return build


def gdcm(*options):
    def build(out):
        src = img2dcm_rgb(out)
        path = os.path.join(out, "gdcm.dcm")
        run("gdcmconv", *options, src, path)
        return path
    return build


def shipped(name):
    def build(out):
        return shutil.copy(os.path.join(PYDICOM_FILES, name), os.path.join(out, name))
    return build


CASES = {
    "img2dcm-rgb": img2dcm_rgb,
    "dcmconv-rgb-big-endian": dcmtk("dcmconv", "+tb"),
    "dcmcrle-rgb": dcmtk("dcmcrle"),
    "dcmcjpeg-baseline-ybr422": dcmtk("dcmcjpeg", "+eb"),
    "dcmcjpeg-lossless-rgb": dcmtk("dcmcjpeg", "+e1"),
    "dcmcjpeg-progressive-rgb": dcmtk("dcmcjpeg", "+ep", "+cr"),
    "dcmcjpls-rgb": dcmtk("dcmcjpls"),
    "gdcmconv-j2k-rgb": gdcm("--j2k"),
    "gdcmconv-jpeg-rgb": gdcm("--jpeg"),
    "gdcmconv-rle-rgb": gdcm("--rle"),
    "pydicom-ybr-full-planar": pydicom_ybr_planar,
    "pydicom-us-cine": pydicom_cine,
    "pydicom-palette-hotiron": lambda out: palette_image(out, "hotiron.dcm", 8),
    "pydicom-palette-segmented-winter": lambda out: palette_image(out, "winter.dcm", 8),
    "pydicom-palette-16bit": palette_16bit,
    "shipped-ybr-full-422-uncompressed": shipped("SC_ybr_full_422_uncompressed.dcm"),
    "shipped-rgb-rle-16bit-2frame": shipped("SC_rgb_rle_16bit_2frame.dcm"),
    "shipped-rgb-rle-32bit": shipped("SC_rgb_rle_32bit.dcm"),
    "shipped-rgb-big-endian": shipped("ExplVR_BigEnd.dcm"),
    "shipped-dcmtk-ybr-full": shipped("SC_rgb_dcmtk_+eb+cy+np.dcm"),
    "shipped-jpeg-gdcm": shipped("SC_rgb_jpeg_gdcm.dcm"),
    "shipped-j2k-gdcm-text": shipped("GDCMJ2K_TextGBR.dcm"),
}


def decoded(path, out):
    """The producer's own decoding as RGB: pydicom for what it reads natively; for compressed
    files, the producer's decompressor (DCMTK's dcmd*, else gdcmconv --raw) then pydicom; for
    big-endian files DCMTK's dcmconv back to little endian."""
    ds = pydicom.dcmread(path)
    syntax = ds.file_meta.TransferSyntaxUID
    if syntax == "1.2.840.10008.1.2.2":
        # 8-bit samples in a big-endian OW element are swapped word by word (PS3.5 7.3); pydicom
        # reads them unswapped, DCMTK (dcmconv back to little endian) as the standard says.
        raw = os.path.join(out, "producer-decoded.dcm")
        run("dcmconv", "+te", path, raw)
        ds = pydicom.dcmread(raw)
    elif syntax.is_compressed:
        raw = os.path.join(out, "producer-decoded.dcm")
        tool = {"1.2.840.10008.1.2.5": ["dcmdrle"],
                "1.2.840.10008.1.2.4.80": ["dcmdjpls"], "1.2.840.10008.1.2.4.81": ["dcmdjpls"]}
        if syntax in tool:
            run(*tool[syntax], path, raw)
        elif syntax.startswith("1.2.840.10008.1.2.4.5") or syntax.startswith("1.2.840.10008.1.2.4.7"):
            run("dcmdjpeg", path, raw)
        else:
            run("gdcmconv", "--raw", path, raw)
        ds = pydicom.dcmread(raw)
    arr = ds.pixel_array
    frames = int(getattr(ds, "NumberOfFrames", 1) or 1)
    photometric = ds.PhotometricInterpretation
    if photometric == "PALETTE COLOR":
        arr = apply_color_lut(arr, ds)
    elif photometric.startswith("YBR_FULL"):
        arr = convert_color_space(arr, "YBR_FULL", "RGB")
    return arr.reshape(frames, ds.Rows, ds.Columns, 3).astype(np.uint32)


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--list":
        print("\n".join(CASES))
        return
    case, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    path = CASES[case](out)
    ref = decoded(path, out)
    final = os.path.join(out, "image.dcm")
    work = os.path.join(out, "work")
    os.makedirs(work, exist_ok=True)
    for name in os.listdir(out):  # only the case's file stays beside image.dcm
        if name.endswith(".dcm") or name.endswith(".bmp"):
            shutil.move(os.path.join(out, name), os.path.join(work, name))
    shutil.copy(os.path.join(work, os.path.basename(path)), final)
    shutil.rmtree(work)
    ref.astype("<u4").tofile(os.path.join(out, "reference.u32"))
    with open(os.path.join(out, "reference.txt"), "w") as f:
        f.write("%d %d %d\n" % ref.shape[:3])


if __name__ == "__main__":
    main()
