#include "annotation/ops/LogicalOp.h"

namespace delineate::annotation {

BoxMask logicalOp(const BoxMask& a, const BoxMask& b, LogicalOp op) {
  core::VoxelBox box = a.box;
  box.include(b.box);
  const BoxMask ra = a.reboxed(box), rb = b.reboxed(box);
  BoxMask out(box);
  for (std::size_t n = 0; n < out.bits.size(); ++n) {
    const bool x = ra.bits[n] != 0, y = rb.bits[n] != 0;
    bool r = false;
    switch (op) {
      case LogicalOp::Union:
        r = x || y;
        break;
      case LogicalOp::Intersect:
        r = x && y;
        break;
      case LogicalOp::Subtract:
        r = x && !y;
        break;
      case LogicalOp::Xor:
        r = x != y;
        break;
    }
    out.bits[n] = r ? 1 : 0;
  }
  return out;
}

BoxMask invertWithin(const BoxMask& mask, const core::VoxelBox& within) {
  BoxMask out = mask.reboxed(within);
  for (std::uint8_t& b : out.bits) {
    b = b ? 0 : 1;
  }
  return out;
}

}  // namespace delineate::annotation
