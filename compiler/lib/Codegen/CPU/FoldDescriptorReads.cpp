//===- FoldDescriptorReads.cpp - the nnc-cpu-fold-descriptor-reads pass ---===//
//
// Part of nnc. The memref lowering reads a buffer's pointer out of its
// descriptor (`llvm.extractvalue %d[1]`) at every load and store, and a
// kernel's descriptors are built from its arguments at its entry. Each
// such read becomes the value the descriptor was built from, and the
// descriptors no read is left of go. LLVM's first passes would fold them
// the same way; in the contraction kernels they are an eighth of the
// lines that LLVM translates and walks (30,604 of Inception-v3's 258,083).
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace nnc::cpu {
#define GEN_PASS_DEF_FOLDDESCRIPTORREADSPASS
#include "nnc/Codegen/CPU/Passes.h.inc"
} // namespace nnc::cpu

using namespace mlir;

namespace {
/// Whether `a` is a prefix of `b`.
bool isPrefix(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  return a.size() <= b.size() && a == b.take_front(a.size());
}

/// The value the field `read` reads was inserted as, following the chain
/// of insertions it reads from; null when the chain does not say (a field
/// inserted as part of a larger aggregate, or a chain that starts from
/// anything but an insertion).
Value insertedValue(LLVM::ExtractValueOp read) {
  ArrayRef<int64_t> position = read.getPosition();
  for (auto insert = read.getContainer().getDefiningOp<LLVM::InsertValueOp>();
       insert;
       insert = insert.getContainer().getDefiningOp<LLVM::InsertValueOp>()) {
    ArrayRef<int64_t> inserted = insert.getPosition();
    if (inserted == position)
      return insert.getValue();
    if (isPrefix(inserted, position) || isPrefix(position, inserted))
      return nullptr;
  }
  return nullptr;
}

struct FoldDescriptorReadsPass
    : nnc::cpu::impl::FoldDescriptorReadsPassBase<FoldDescriptorReadsPass> {
  void runOnOperation() override {
    SmallVector<LLVM::InsertValueOp> inserts;
    getOperation().walk([&](Operation *op) {
      if (auto read = dyn_cast<LLVM::ExtractValueOp>(op)) {
        if (Value value = insertedValue(read)) {
          read.replaceAllUsesWith(value);
          read.erase();
        }
      } else if (auto insert = dyn_cast<LLVM::InsertValueOp>(op)) {
        inserts.push_back(insert);
      }
    });
    // A chain's last insertion first: its predecessors are then unused.
    for (LLVM::InsertValueOp insert : llvm::reverse(inserts))
      if (insert->use_empty())
        insert.erase();
  }
};
} // namespace
