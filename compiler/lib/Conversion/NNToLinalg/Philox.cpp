//===- Philox.cpp - Philox4x32-10 in arith ops ----------------------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "Philox.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace {

constexpr uint32_t kMul0 = 0xD2511F53, kMul1 = 0xCD9E8D57;
constexpr uint32_t kWeyl0 = 0x9E3779B9, kWeyl1 = 0xBB67AE85;
constexpr int kRounds = 10;

struct PhiloxBuilder {
  OpBuilder &b;
  Location loc;

  Value i32(uint32_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int32_t(v)));
  }
  Value i64(uint64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(int64_t(v)));
  }
  Value low(Value v64) {
    return arith::TruncIOp::create(b, loc, b.getI32Type(), v64);
  }
  Value high(Value v64) {
    return low(arith::ShRUIOp::create(b, loc, v64, i64(32)));
  }
  Value xorI(Value x, Value y) { return arith::XOrIOp::create(b, loc, x, y); }

  /// (high, low) halves of the 64-bit product of `m` and `x` (i32).
  std::pair<Value, Value> mulHiLo(uint32_t m, Value x) {
    Value wide = arith::ExtUIOp::create(b, loc, b.getI64Type(), x);
    Value p = arith::MulIOp::create(b, loc, wide, i64(m));
    return {high(p), low(p)};
  }
};

} // namespace

Value nnc::philoxFirstWord(OpBuilder &b, Location loc, Value index, Value step,
                           uint64_t seed) {
  PhiloxBuilder p{b, loc};
  Value c[4] = {p.low(index), p.high(index), p.low(step), p.high(step)};
  uint32_t k0 = uint32_t(seed), k1 = uint32_t(seed >> 32);
  for (int round = 0; round < kRounds; ++round) {
    auto [hi0, lo0] = p.mulHiLo(kMul0, c[0]);
    auto [hi1, lo1] = p.mulHiLo(kMul1, c[2]);
    Value next[4] = {p.xorI(p.xorI(hi1, c[1]), p.i32(k0)), lo1,
                     p.xorI(p.xorI(hi0, c[3]), p.i32(k1)), lo0};
    std::copy(std::begin(next), std::end(next), std::begin(c));
    k0 += kWeyl0;
    k1 += kWeyl1;
  }
  return c[0];
}
