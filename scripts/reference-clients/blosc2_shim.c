/* The two python-blosc2 calls nnInteractive's client makes, as python-blosc2 makes them, for
   scripts/reference-clients/blosc2.py. */
#include <blosc2.h>
#include <string.h>

int shim_compress(const void* src, int n, void* dst, int cap, int typesize, int codec, int clevel,
                  int filter, int nthreads) {
  blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
  cp.compcode = (uint8_t)codec;
  cp.clevel = (uint8_t)clevel;
  cp.typesize = typesize;
  cp.nthreads = (int16_t)nthreads;
  cp.blocksize = 0;
  cp.splitmode = BLOSC_AUTO_SPLIT;
  for (int i = 0; i < BLOSC2_MAX_FILTERS; ++i) {
    cp.filters[i] = 0;
    cp.filters_meta[i] = 0;
  }
  cp.filters[0] = (uint8_t)filter;
  blosc2_context* cx = blosc2_create_cctx(cp);
  int r = blosc2_compress_ctx(cx, src, n, dst, cap);
  blosc2_free_ctx(cx);
  return r;
}
int shim_nbytes(const void* src) {
  int32_t nbytes, cbytes, blocksize;
  if (blosc2_cbuffer_sizes(src, &nbytes, &cbytes, &blocksize) < 0)
    return -1;
  return nbytes;
}
int shim_decompress(const void* src, int srcsize, void* dst, int nbytes) {
  blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
  dp.nthreads = 1;
  blosc2_context* dx = blosc2_create_dctx(dp);
  int r = blosc2_decompress_ctx(dx, src, srcsize, dst, nbytes);
  blosc2_free_ctx(dx);
  return r;
}
void shim_init(void) {
  blosc2_init();
}
