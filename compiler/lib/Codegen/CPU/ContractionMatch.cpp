//===- ContractionMatch.cpp - recognise contractions on buffers -----------===//
//
// Part of nnc. A linalg op with a multiply-accumulate body whose operand
// maps are linear in the loop indices is a contraction: its parallel loops
// that only A (B) reads are the M (N) dimensions, its reductions the K
// dimensions. Addresses come from the maps and the memrefs' static strides.
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"
#include "nnc/Utils/MemRefUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace nnc::cpu;

namespace {
/// Adds `scale * expr` to `coef` / `constant`; false when not linear.
bool linearize(AffineExpr expr, int64_t scale, SmallVectorImpl<int64_t> &coef,
               int64_t &constant) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    coef[dim.getPosition()] += scale;
    return true;
  }
  if (auto cst = dyn_cast<AffineConstantExpr>(expr)) {
    constant += scale * cst.getValue();
    return true;
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return false;
  if (bin.getKind() == AffineExprKind::Add)
    return linearize(bin.getLHS(), scale, coef, constant) &&
           linearize(bin.getRHS(), scale, coef, constant);
  if (bin.getKind() != AffineExprKind::Mul)
    return false;
  if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
    return linearize(bin.getLHS(), scale * c.getValue(), coef, constant);
  if (auto c = dyn_cast<AffineConstantExpr>(bin.getLHS()))
    return linearize(bin.getRHS(), scale * c.getValue(), coef, constant);
  return false;
}

bool usesDim(AffineMap map, unsigned d) {
  return llvm::any_of(map.getResults(),
                      [&](AffineExpr e) { return e.isFunctionOfDim(d); });
}

/// The body is `yield(out + in0 * in1)` (in either order) on f32.
bool isMultiplyAccumulate(linalg::LinalgOp op) {
  Block &body = op->getRegion(0).front();
  if (body.getOperations().size() != 3)
    return false;
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value out = body.getArgument(2), other;
  if (add.getLhs() == out)
    other = add.getRhs();
  else if (add.getRhs() == out)
    other = add.getLhs();
  else
    return false;
  auto mul = other.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  Value x = body.getArgument(0), y = body.getArgument(1);
  return (mul.getLhs() == x && mul.getRhs() == y) ||
         (mul.getLhs() == y && mul.getRhs() == x);
}

int64_t product(ArrayRef<int64_t> sizes, ArrayRef<unsigned> dims) {
  int64_t p = 1;
  for (unsigned d : dims)
    p *= sizes[d];
  return p;
}
} // namespace

Value nnc::cpu::bufferRoot(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

bool nnc::cpu::touchesBuffer(Operation *op, Value root) {
  return llvm::any_of(op->getOperands(),
                      [&](Value v) { return bufferRoot(v) == root; });
}

LinearAccess nnc::cpu::denseAccess(const Contraction &c) {
  LinearAccess access;
  access.coef.assign(c.sizes.size(), 0);
  int64_t stride = 1;
  for (unsigned i = c.nDims.size(); i-- > 0;) {
    access.coef[c.nDims[i]] = stride;
    stride *= c.sizes[c.nDims[i]];
  }
  for (unsigned i = c.mDims.size(); i-- > 0;) {
    access.coef[c.mDims[i]] = stride;
    stride *= c.sizes[c.mDims[i]];
  }
  access.span = stride;
  return access;
}

std::optional<LinearAccess> nnc::cpu::linearAccess(Value buffer, AffineMap map,
                                                   ArrayRef<int64_t> sizes) {
  std::optional<StaticLayout> layout = getStaticLayout(buffer.getType());
  if (!layout)
    return std::nullopt;
  LinearAccess access;
  access.buffer = buffer;
  access.offset = layout->offset;
  access.coef.assign(map.getNumDims(), 0);
  for (auto [expr, stride] : llvm::zip(map.getResults(), layout->strides)) {
    SmallVector<int64_t> coef(map.getNumDims(), 0);
    int64_t constant = 0;
    if (!linearize(expr, 1, coef, constant))
      return std::nullopt;
    for (unsigned d = 0; d < coef.size(); ++d)
      access.coef[d] += stride * coef[d];
    access.offset += stride * constant;
  }
  int64_t lo = access.offset, hi = access.offset;
  for (unsigned d = 0; d < sizes.size(); ++d) {
    int64_t reach = access.coef[d] * (sizes[d] - 1);
    (reach < 0 ? lo : hi) += reach;
  }
  if (lo < 0)
    return std::nullopt;
  access.span = hi + 1;
  return access;
}

int64_t Contraction::m() const { return product(sizes, mDims); }
int64_t Contraction::n() const { return product(sizes, nDims); }
int64_t Contraction::k() const { return product(sizes, kDims); }

std::optional<Contraction> nnc::cpu::matchContraction(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op->getNumRegions() != 1)
    return std::nullopt;
  for (Type t : op->getOperandTypes()) {
    auto m = dyn_cast<MemRefType>(t);
    if (!m || !m.hasStaticShape() || !m.getElementType().isF32())
      return std::nullopt;
  }
  if (!isMultiplyAccumulate(op))
    return std::nullopt;

  Contraction c;
  c.op = op;
  c.sizes = op.getStaticLoopRanges();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap cMap = maps[2];
  if (!cMap.isProjectedPermutation() || cMap.getNumResults() == 0)
    return std::nullopt;
  c.nDim = cast<AffineDimExpr>(cMap.getResults().back()).getPosition();
  // B is the input that reads C's innermost dimension.
  unsigned aIdx = usesDim(maps[1], c.nDim) ? 0 : 1, bIdx = 1 - aIdx;
  if (usesDim(maps[aIdx], c.nDim) || !usesDim(maps[bIdx], c.nDim))
    return std::nullopt;
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  for (unsigned d = 0; d < iters.size(); ++d) {
    bool inA = usesDim(maps[aIdx], d), inB = usesDim(maps[bIdx], d);
    bool inC = usesDim(cMap, d);
    if (iters[d] == utils::IteratorType::reduction) {
      if (!inA || !inB || inC)
        return std::nullopt;
      c.kDims.push_back(d);
    } else if (!inC || inA == inB) {
      return std::nullopt; // batch or broadcast dimensions
    }
  }
  for (AffineExpr e : cMap.getResults()) {
    unsigned d = cast<AffineDimExpr>(e).getPosition();
    (usesDim(maps[bIdx], d) ? c.nDims : c.mDims).push_back(d);
  }
  if (c.kDims.empty())
    return std::nullopt;

  std::optional<LinearAccess> a =
      linearAccess(op.getDpsInputOperand(aIdx)->get(), maps[aIdx], c.sizes);
  std::optional<LinearAccess> b =
      linearAccess(op.getDpsInputOperand(bIdx)->get(), maps[bIdx], c.sizes);
  std::optional<LinearAccess> out =
      linearAccess(op.getDpsInitOperand(0)->get(), cMap, c.sizes);
  if (!a || !b || !out || out->coef[c.nDim] != 1)
    return std::nullopt;
  c.a = *a;
  c.b = *b;
  c.c = *out;
  // The innermost K loop walks A with its smallest stride.
  llvm::sort(c.kDims, [&](unsigned x, unsigned y) {
    auto key = [&](unsigned d) {
      return std::make_tuple(-std::abs(c.a.coef[d]), -std::abs(c.b.coef[d]), d);
    };
    return key(x) < key(y);
  });
  // Adjacent K dimensions that both A and B walk contiguously (a filter
  // row's taps and channels in NHWC) are one longer loop: the dimension
  // outside takes size 1.
  while (c.kDims.size() >= 2) {
    unsigned outer = c.kDims[c.kDims.size() - 2], inner = c.kDims.back();
    auto contiguous = [&](const LinearAccess &x) {
      return x.coef[outer] == c.sizes[inner] * x.coef[inner];
    };
    if (!contiguous(c.a) || !contiguous(c.b))
      break;
    c.sizes[inner] *= c.sizes[outer];
    c.sizes[outer] = 1;
    c.kDims.erase(c.kDims.end() - 2);
  }
  c.zeroInit = static_cast<bool>(findZeroFill(c));
  return c;
}

linalg::FillOp nnc::cpu::findZeroFill(const Contraction &c) {
  Value root = bufferRoot(c.c.buffer);
  for (Operation *op = c.op->getPrevNode(); op; op = op->getPrevNode()) {
    auto fill = dyn_cast<linalg::FillOp>(op);
    if (fill && fill.hasPureBufferSemantics() &&
        fill.getDpsInitOperand(0)->get() == c.c.buffer) {
      auto zero =
          fill.getDpsInputOperand(0)->get().getDefiningOp<arith::ConstantOp>();
      auto value = zero ? dyn_cast<FloatAttr>(zero.getValue()) : FloatAttr();
      return value && value.getValue().isZero() ? fill : linalg::FillOp();
    }
    // Linalg ops access their operands only; other ops with regions may
    // reach C from inside.
    if (touchesBuffer(op, root) ||
        (op->getNumRegions() > 0 && !isa<linalg::LinalgOp>(op)))
      return {};
  }
  return {};
}
