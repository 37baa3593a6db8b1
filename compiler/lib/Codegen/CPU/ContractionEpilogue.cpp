//===- ContractionEpilogue.cpp - fusing C's elementwise consumer ----------===//
//
// Part of nnc. The elementwise linalg.generic that first reads a
// contraction's result (bias and activation, an activation gradient, an
// optimizer update) is computed in the contraction's last stores, so C
// never makes a round trip through memory, where that round trip would
// cost (worthFusingEpilogue). Its operands' maps are rewritten in the
// contraction's loop dimensions; its body is replayed on vectors.
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace nnc::cpu;

namespace {
/// Arithmetic that works the same on vectors as on scalars.
bool isVectorizable(Operation &op) {
  if (op.getNumRegions() || op.getNumResults() != 1 ||
      !isa<arith::ArithDialect, math::MathDialect>(op.getDialect()))
    return false;
  return !isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ConstantOp>(
             op) &&
         llvm::all_of(op.getResultTypes(),
                      [](Type t) { return t.isIntOrFloat(); });
}

/// Whether `op`, between the contraction and its consumer, lets the
/// contraction move down to the consumer: it must not write what the
/// contraction reads, nor use C.
bool commutes(Operation *op, Value aRoot, Value bRoot, Value cRoot) {
  if (touchesBuffer(op, cRoot))
    return false;
  if (op->getNumRegions() > 0 && !isa<linalg::LinalgOp>(op))
    return false;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    for (OpOperand &init : linalgOp.getDpsInitsMutable())
      if (bufferRoot(init.get()) == aRoot || bufferRoot(init.get()) == bRoot)
        return false;
    return true;
  }
  return !touchesBuffer(op, aRoot) && !touchesBuffer(op, bRoot);
}
} // namespace

namespace {
/// The elementwise generic that is the first op after `c` to touch C, when
/// every op in between commutes with the contraction; else null.
linalg::GenericOp findConsumer(const Contraction &c) {
  Value aRoot = bufferRoot(c.a.buffer), bRoot = bufferRoot(c.b.buffer);
  Value cRoot = bufferRoot(c.c.buffer);
  Operation *next = c.op->getNextNode();
  while (next && !touchesBuffer(next, cRoot)) {
    if (!commutes(next, aRoot, bRoot, cRoot))
      return nullptr;
    next = next->getNextNode();
  }
  auto generic = dyn_cast_or_null<linalg::GenericOp>(next);
  if (!generic || !generic.hasPureBufferSemantics() ||
      generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return nullptr;
  return generic;
}

/// The one input of `generic` that reads C (C's own view), or nullopt.
std::optional<unsigned> findCInput(const Contraction &c,
                                   linalg::GenericOp generic) {
  Value cRoot = bufferRoot(c.c.buffer);
  std::optional<unsigned> cInput;
  for (OpOperand *in : generic.getDpsInputOperands()) {
    if (bufferRoot(in->get()) != cRoot)
      continue;
    if (cInput || in->get() != c.c.buffer)
      return std::nullopt;
    cInput = in->getOperandNumber();
  }
  return cInput;
}

/// The consumer's loops in terms of the contraction's: consumer loop e
/// reads C's result p, which the contraction's C map gives as cMap(p).
std::optional<AffineMap> consumerLoops(const Contraction &c,
                                       linalg::GenericOp generic,
                                       unsigned cInput) {
  AffineMap consumerC =
      generic.getMatchingIndexingMap(generic.getDpsInputOperand(cInput));
  AffineMap contractionC =
      c.op.getMatchingIndexingMap(c.op.getDpsInitOperand(0));
  if (!consumerC.isPermutation() ||
      consumerC.getNumResults() != contractionC.getNumResults())
    return std::nullopt;
  SmallVector<AffineExpr> loops(consumerC.getNumDims());
  for (auto [p, e] : llvm::enumerate(consumerC.getResults()))
    loops[cast<AffineDimExpr>(e).getPosition()] = contractionC.getResult(p);
  return AffineMap::get(contractionC.getNumDims(), 0, loops,
                        generic.getContext());
}

/// The epilogue's operand accesses in the contraction's loops: f32 buffers,
/// each unit-stride or constant along C's columns; D unit-stride.
LogicalResult describeOperands(const Contraction &c, AffineMap loops,
                               Epilogue &epi) {
  linalg::GenericOp generic = epi.op;
  auto accessOf = [&](OpOperand *operand) -> std::optional<LinearAccess> {
    auto type = dyn_cast<MemRefType>(operand->get().getType());
    if (!type || !type.getElementType().isF32())
      return std::nullopt;
    std::optional<LinearAccess> access = linearAccess(
        operand->get(), generic.getMatchingIndexingMap(operand).compose(loops),
        c.sizes);
    if (access && (access->coef[c.nDim] == 0 || access->coef[c.nDim] == 1))
      return access;
    return std::nullopt;
  };
  for (OpOperand *in : generic.getDpsInputOperands()) {
    if (in->getOperandNumber() == epi.cInput) {
      epi.inputs.push_back(c.c);
      continue;
    }
    std::optional<LinearAccess> access = accessOf(in);
    if (!access)
      return failure();
    epi.inputs.push_back(*access);
  }
  std::optional<LinearAccess> d = accessOf(generic.getDpsInitOperand(0));
  if (!d || d->coef[c.nDim] != 1)
    return failure();
  epi.dest = *d;
  return success();
}
} // namespace

/// A fused epilogue saves C's round trip: C written by the contraction,
/// then read back by its consumer, 8 bytes per element of C against the
/// contraction's 2K flops per element, so it matters where K is short:
/// cifar_mlp's weight gradients (K = 32, the batch) with the optimizer's
/// update fused ran 1.17 times as fast. From memory rather than the caches,
/// for a C larger than they hold (VGG16's first layers: 784 MB of C at
/// K = 576), it costs several times more. But each fused epilogue makes its
/// contraction's kernel one of its own, compiled apart: Inception-v3's 199
/// contractions with a consumer (K from 27 to 710,432, most of them 768 or
/// more) made 119 contraction kernels after merging, 84 under the rule
/// below, which took 0.3 s off its compile while every training step ran
/// as fast (docs/bench.md). An epilogue is fused when K is below 24 k steps
/// per vector lane (192 with AVX2, 384 with AVX-512, whose FMAs outrun
/// memory twice as fast), or below 512 per lane when C is larger than
/// 16 MB.
constexpr int64_t kFusedEpilogueMaxKPerLane = 24;
constexpr int64_t kFusedEpilogueMaxKPerLaneFromMemory = 512;
constexpr int64_t kEpilogueFromMemoryBytes = int64_t(16) << 20;

bool nnc::cpu::worthFusingEpilogue(const Contraction &c, const GemmPlan &plan) {
  if (c.k() < kFusedEpilogueMaxKPerLane * plan.lanes)
    return true;
  return c.m() * c.n() * int64_t(sizeof(float)) > kEpilogueFromMemoryBytes &&
         c.k() < kFusedEpilogueMaxKPerLaneFromMemory * plan.lanes;
}

std::optional<Epilogue> nnc::cpu::matchEpilogue(const Contraction &c) {
  linalg::GenericOp generic = findConsumer(c);
  if (!generic)
    return std::nullopt;
  std::optional<unsigned> cInput = findCInput(c, generic);
  if (!cInput)
    return std::nullopt;
  Value aRoot = bufferRoot(c.a.buffer), bRoot = bufferRoot(c.b.buffer);
  Value cRoot = bufferRoot(c.c.buffer);
  Value dest = generic.getDpsInitOperand(0)->get();
  Value dRoot = bufferRoot(dest);
  if (dRoot == aRoot || dRoot == bRoot ||
      (dRoot == cRoot && dest != c.c.buffer))
    return std::nullopt;
  std::optional<AffineMap> loops = consumerLoops(c, generic, *cInput);
  if (!loops)
    return std::nullopt;
  Epilogue epi;
  epi.op = generic;
  epi.cInput = *cInput;
  if (failed(describeOperands(c, *loops, epi)))
    return std::nullopt;
  Block &body = generic.getRegion().front();
  for (Operation &op : body.without_terminator())
    if (!isVectorizable(op))
      return std::nullopt;
  // C holds only partial sums once D gets the result: nothing may read it
  // afterwards (but the op that frees it).
  if (dRoot != cRoot)
    for (Operation *op = generic->getNextNode(); op; op = op->getNextNode())
      if (touchesBuffer(op, cRoot) && !isa<memref::DeallocOp>(op))
        return std::nullopt;
  return epi;
}

Value nnc::cpu::emitEpilogueBody(OpBuilder &b, Location loc,
                                 const Epilogue &epilogue,
                                 ArrayRef<Value> operands) {
  Block &body = epilogue.op.getRegion().front();
  auto shape = dyn_cast<VectorType>(operands[epilogue.cInput].getType());
  IRMapping map;
  for (auto [arg, value] : llvm::zip(body.getArguments(), operands))
    if (value)
      map.map(arg, value);
  auto lookup = [&](Value v) -> Value {
    if (Value mapped = map.lookupOrNull(v))
      return mapped;
    // Defined above the consumer: a scalar, splat when the body is on
    // vectors.
    if (!shape)
      return v;
    Value splat = vector::BroadcastOp::create(
        b, loc, VectorType::get(shape.getShape(), v.getType()), v);
    map.map(v, splat);
    return splat;
  };
  for (Operation &op : body.without_terminator()) {
    SmallVector<Value> newOperands;
    for (Value v : op.getOperands())
      newOperands.push_back(lookup(v));
    SmallVector<Type> types;
    for (Type t : op.getResultTypes())
      types.push_back(shape ? VectorType::get(shape.getShape(), t) : t);
    OperationState state(loc, op.getName(), newOperands, types, op.getAttrs());
    map.map(op.getResult(0), b.create(state)->getResult(0));
  }
  return lookup(body.getTerminator()->getOperand(0));
}
