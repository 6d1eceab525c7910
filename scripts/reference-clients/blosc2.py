# A stand-in for python-blosc2 (not packaged for Debian 12) offering the calls nnInteractive's
# client makes, on the real c-blosc2 through blosc2_shim.c: compress2 and decompress2 behave as
# python-blosc2's do (its filter in slot 0, automatic split, the chunk's own sizes on reading).
import ctypes
import enum
import os

_lib = ctypes.CDLL(os.environ.get("BLOSC2_SHIM", os.path.join(os.path.dirname(__file__), "libblosc2_shim.so")))
_lib.shim_init()


class Codec(enum.Enum):
    LZ4 = 1
    ZSTD = 5


class Filter(enum.Enum):
    NOFILTER = 0
    SHUFFLE = 1
    BITSHUFFLE = 2


nthreads = 1


def compress2(src, typesize=8, codec=Codec.ZSTD, clevel=1, filters=None, nthreads=1, **_):
    data = bytes(memoryview(src).cast("B"))
    cap = len(data) + 64
    dst = ctypes.create_string_buffer(cap)
    f = (filters or [Filter.SHUFFLE])[0]
    r = _lib.shim_compress(data, len(data), dst, cap, typesize, codec.value, clevel, f.value, nthreads)
    if r <= 0:
        raise RuntimeError("Could not compress the data")
    return dst.raw[:r]


def decompress2(src, dst=None, **_):
    data = bytes(memoryview(src).cast("B"))
    n = _lib.shim_nbytes(data)
    if n < 0:
        raise ValueError("Error while getting the buffer sizes")
    out = ctypes.create_string_buffer(max(n, 1))
    r = _lib.shim_decompress(data, len(data), out, n)
    if r < 0:
        raise ValueError("Error while decompressing, check the src data and/or the dparams")
    return out.raw[:r]
