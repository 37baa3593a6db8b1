//===- ParallelToRuntime.cpp - the nnc-cpu-parallel-to-runtime pass -------===//
//
// Part of nnc. A kernel's parallel loop nest, as convert-scf-to-openmp and
// nnc-cpu-guided-schedule leave it (an `omp.parallel` around a guided
// `omp.wsloop` of one `omp.loop_nest`), becomes:
//
//   - a function of its own, `KERNEL.body(context, first, last)`, which runs
//     the nest's iterations [first, last), numbered row-major;
//   - in the kernel, the values the body reads stored to a structure on the
//     stack (its constants are copied into the body instead), and a call
//     of the runtime's `nnc_parallel_for(body, context, count)`
//     (runtime/lib/Parallel.cpp), which hands out chunks of the iterations
//     to the threads as the guided schedule does.
//
// Translated by OpenMP's IR builder, every region was an outlined function
// plus the fork call and the schedule's dispatch loop in each kernel: about
// a hundred lines of LLVM IR, and as much LLVM work as a small kernel's
// loops. The structure, the loop and the runtime's one dispatcher do the
// same once.
//
// The pass runs on the whole module once the kernels are merged
// (nnc-cpu-merge-kernels): the new functions are built apart, the kernels
// in parallel, then added to the module.
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/SetVector.h"

namespace nnc::cpu {
#define GEN_PASS_DEF_PARALLELTORUNTIMEPASS
#include "nnc/Codegen/CPU/Passes.h.inc"
} // namespace nnc::cpu

using namespace mlir;
using LLVM::LLVMFuncOp;

namespace {
constexpr llvm::StringLiteral kParallelFor = "nnc_parallel_for";

/// The loop nest of `parallel` when the region is nothing but a guided (or
/// unscheduled) worksharing loop of one nest, with no clause that changes
/// what the threads do (reductions, private copies, thread counts, ...);
/// else null.
omp::LoopNestOp plainLoopNest(omp::ParallelOp parallel) {
  Block &block = parallel.getRegion().front();
  if (parallel->getNumOperands() != 0 || parallel.getProcBindKind() ||
      !parallel.getRegion().hasOneBlock() || block.getOperations().size() != 2)
    return nullptr;
  auto wsloop = dyn_cast<omp::WsloopOp>(block.front());
  if (!wsloop || wsloop->getNumOperands() != 0 || wsloop.getOrder() ||
      wsloop.getOrdered() ||
      (wsloop.getScheduleKind() &&
       *wsloop.getScheduleKind() != omp::ClauseScheduleKind::Guided) ||
      wsloop.getScheduleMod() || wsloop.getReductionSyms())
    return nullptr;
  auto nest = dyn_cast<omp::LoopNestOp>(wsloop.getWrappedLoop());
  if (!nest || nest.getLoopInclusive())
    return nullptr;
  return nest;
}

/// Whether `op` is a constant that the body copies instead of reading it
/// from the context.
bool isCopied(Operation *op) {
  return isa_and_present<LLVM::ConstantOp, LLVM::ZeroOp, LLVM::PoisonOp,
                         LLVM::UndefOp, LLVM::AddressOfOp>(op);
}

/// Rewrites the region `parallel` of `kernel` as a call of the runtime with
/// its body, `name`, which is returned (detached: the caller adds it to the
/// module).
LLVMFuncOp outline(LLVMFuncOp kernel, omp::ParallelOp parallel,
                   omp::LoopNestOp nest, StringRef name) {
  MLIRContext *ctx = kernel.getContext();
  Location loc = parallel.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i64 = IntegerType::get(ctx, 64);
  Region &loops = nest.getRegion();

  // The values the nest reads from the kernel, its bounds among them.
  llvm::SetVector<Value> captured;
  auto capture = [&](Value v) {
    if (!loops.isAncestor(v.getParentRegion()))
      captured.insert(v);
  };
  for (Value v : nest->getOperands())
    capture(v);
  loops.walk([&](Operation *op) {
    for (Value v : op->getOperands())
      capture(v);
  });
  SmallVector<Value> fields;
  SmallVector<Type> fieldTypes;
  for (Value v : captured)
    if (!isCopied(v.getDefiningOp())) {
      fields.push_back(v);
      fieldTypes.push_back(v.getType());
    }
  auto structType = LLVM::LLVMStructType::getLiteral(ctx, fieldTypes);
  // The address of the context's field `i`, at `base`.
  auto field = [&](OpBuilder &builder, Value base, size_t i) -> Value {
    return LLVM::GEPOp::create(
        builder, loc, ptr, structType, base,
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
  };

  // body(context, first, last).
  OpBuilder b(ctx);
  auto body =
      LLVMFuncOp::create(b, loc, name,
                         LLVM::LLVMFunctionType::get(
                             LLVM::LLVMVoidType::get(ctx), {ptr, i64, i64}));
  body.setLinkage(LLVM::Linkage::Internal);
  if (std::optional<ArrayAttr> passthrough = kernel.getPassthrough())
    body.setPassthroughAttr(*passthrough);
  Block *entry = body.addEntryBlock(b);
  Value context = entry->getArgument(0);
  b.setInsertionPointToStart(entry);
  IRMapping map;
  for (Value v : captured)
    if (isCopied(v.getDefiningOp()))
      map.map(v, b.clone(*v.getDefiningOp())->getResult(0));
  for (auto [i, v] : llvm::enumerate(fields))
    map.map(v, LLVM::LoadOp::create(b, loc, v.getType(), field(b, context, i)));
  auto lookup = [&](Value v) { return map.lookupOrDefault(v); };
  auto constant = [&](OpBuilder &builder, int64_t value) -> Value {
    return LLVM::ConstantOp::create(builder, loc, i64, value);
  };

  // Each dimension's trip count, in the body and in the kernel.
  unsigned rank = nest.getNumLoops();
  auto trips = [&](OpBuilder &builder, function_ref<Value(Value)> get) {
    SmallVector<Value> result;
    for (unsigned d = 0; d < rank; ++d) {
      Value lb = get(nest.getLoopLowerBounds()[d]);
      Value ub = get(nest.getLoopUpperBounds()[d]);
      Value step = get(nest.getLoopSteps()[d]);
      Value span = LLVM::SubOp::create(builder, loc, ub, lb);
      span = LLVM::AddOp::create(builder, loc, span, step);
      span = LLVM::SubOp::create(builder, loc, span, constant(builder, 1));
      result.push_back(LLVM::SDivOp::create(builder, loc, span, step));
    }
    return result;
  };
  SmallVector<Value> bodyTrips = trips(b, lookup);

  // for (i = first; i < last; ++i): the indices of iteration i, then the
  // nest's blocks, whose yields go to the next iteration.
  Block *header = body.addBlock();
  Value i = header->addArgument(i64, loc);
  Block *indices = body.addBlock();
  Block *exit = body.addBlock();
  LLVM::BrOp::create(b, loc, ValueRange{entry->getArgument(1)}, header);
  b.setInsertionPointToStart(header);
  Value more = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt, i,
                                    entry->getArgument(2));
  LLVM::CondBrOp::create(b, loc, more, indices, exit);
  b.setInsertionPointToStart(exit);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  Block *latch = body.addBlock();
  b.setInsertionPointToStart(latch);
  Value next = LLVM::AddOp::create(b, loc, i, constant(b, 1));
  LLVM::BrOp::create(b, loc, ValueRange{next}, header);

  b.setInsertionPointToStart(indices);
  SmallVector<Value> ivs(rank);
  Value rest = i;
  for (unsigned d = rank; d-- > 0;) {
    Value position = rest;
    if (d > 0) {
      position = LLVM::URemOp::create(b, loc, rest, bodyTrips[d]);
      rest = LLVM::UDivOp::create(b, loc, rest, bodyTrips[d]);
    }
    Value offset =
        LLVM::MulOp::create(b, loc, position, lookup(nest.getLoopSteps()[d]));
    ivs[d] = LLVM::AddOp::create(b, loc, lookup(nest.getLoopLowerBounds()[d]),
                                 offset);
  }
  Block *first = &loops.front();
  LLVM::BrOp::create(b, loc, ivs, first);
  body.getBody().getBlocks().splice(latch->getIterator(), loops.getBlocks());
  for (Block *block = first; block != latch; block = block->getNextNode()) {
    for (Operation &op : *block)
      for (OpOperand &operand : op.getOpOperands())
        operand.set(lookup(operand.get()));
    Operation *terminator = block->getTerminator();
    if (isa<omp::YieldOp>(terminator)) {
      b.setInsertionPoint(terminator);
      LLVM::BrOp::create(b, loc, ValueRange{}, latch);
      terminator->erase();
    }
  }

  // In the kernel: the context on the stack, filled, and the call.
  Block &kernelEntry = kernel.getBody().front();
  b.setInsertionPointToStart(&kernelEntry);
  Value contextPtr;
  if (fields.empty()) {
    contextPtr = LLVM::ZeroOp::create(b, loc, ptr);
  } else {
    contextPtr = LLVM::AllocaOp::create(b, loc, ptr, structType, constant(b, 1),
                                        /*alignment=*/0);
  }
  b.setInsertionPoint(parallel);
  for (auto [i, v] : llvm::enumerate(fields))
    LLVM::StoreOp::create(b, loc, v, field(b, contextPtr, i));
  // An empty dimension (a negative trip count) empties the nest.
  Value count = constant(b, 1);
  for (Value trip : trips(b, [](Value v) { return v; }))
    count = LLVM::MulOp::create(
        b, loc, count, LLVM::SMaxOp::create(b, loc, trip, constant(b, 0)));
  Value fn = LLVM::AddressOfOp::create(b, loc, ptr, name);
  LLVM::CallOp::create(b, loc, TypeRange{}, kParallelFor,
                       ValueRange{fn, contextPtr, count});
  parallel.erase();
  return body;
}

struct ParallelToRuntimePass
    : nnc::cpu::impl::ParallelToRuntimePassBase<ParallelToRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<LLVMFuncOp> kernels;
    for (auto f : module.getOps<LLVMFuncOp>())
      if (!f.isExternal() && f.getName().starts_with(nnc::cpu::kKernelPrefix))
        kernels.push_back(f);
    std::vector<SmallVector<LLVMFuncOp>> bodies(kernels.size());
    parallelFor(&getContext(), 0, kernels.size(), [&](size_t k) {
      LLVMFuncOp kernel = kernels[k];
      SmallVector<std::pair<omp::ParallelOp, omp::LoopNestOp>> regions;
      kernel.walk<WalkOrder::PreOrder>([&](omp::ParallelOp parallel) {
        if (omp::LoopNestOp nest = plainLoopNest(parallel))
          regions.push_back({parallel, nest});
        return WalkResult::skip();
      });
      for (auto [n, region] : llvm::enumerate(regions))
        bodies[k].push_back(
            outline(kernel, region.first, region.second,
                    (kernel.getName() + ".body" + Twine(n)).str()));
    });
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    bool any = false;
    for (auto [kernel, list] : llvm::zip(kernels, bodies))
      for (LLVMFuncOp body : list) {
        module.getBody()->getOperations().insertAfter(kernel->getIterator(),
                                                      body.getOperation());
        any = true;
      }
    if (!any || module.lookupSymbol(kParallelFor))
      return;
    auto ptr = LLVM::LLVMPointerType::get(&getContext());
    auto i64 = b.getI64Type();
    LLVMFuncOp::create(
        b, module.getLoc(), kParallelFor,
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(&getContext()),
                                    {ptr, ptr, i64}));
  }
};
} // namespace
