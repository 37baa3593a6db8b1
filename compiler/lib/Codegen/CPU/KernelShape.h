//===- KernelShape.h - kernels equal but for some constants -----*- C++ -*-===//
//
// Part of nnc. What nnc-cpu-merge-kernels (on the LLVM dialect) and
// nnc-cpu-merge-flat-kernels (on the outlined contraction kernels, before
// their lowering) share: a kernel's shape, which two kernels have when they
// compute the same thing but for the values some uses of constants read,
// the grouping of kernels of one shape into merges of at most
// maxParameters arguments (a constant that is a multiple of another takes
// none), and the rewrite of a group's first kernel to read its arguments
// instead. Which constants and which uses may become arguments is each
// pass's (KernelPolicy), and so is how a function takes arguments and is
// called.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CODEGEN_CPU_KERNELSHAPE_H
#define NNC_CODEGEN_CPU_KERNELSHAPE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/MapVector.h"

namespace nnc::cpu {

/// A merged kernel takes at most this many constants as arguments: six
/// pass in registers, the rest on the stack, read once per call.
constexpr unsigned kMaxParameters = 12;

/// What one merge pass treats as a constant and as a parameter.
class KernelPolicy {
public:
  virtual ~KernelPolicy() = default;
  /// Whether `op` is a constant: no token of its own, each use standing
  /// for the value it reads.
  virtual bool isConstant(mlir::Operation *op) const = 0;
  /// The value of the constant `op`.
  virtual mlir::Attribute constantValue(mlir::Operation *op) const = 0;
  /// Whether the constant `use` reads may become an argument.
  virtual bool isParameter(mlir::OpOperand &use) const = 0;
  /// The value a parameter reads, as the merged kernel's callers pass it.
  virtual mlir::Attribute parameterValue(mlir::Operation *constant) const {
    return constantValue(constant);
  }
  /// `value`, an argument of the merged kernel, times `factor`, built
  /// where `b` inserts.
  virtual mlir::Value multiply(mlir::OpBuilder &b, mlir::Value value,
                               int64_t factor) const = 0;
  /// The type the kernel's argument of type `type` counts as.
  virtual mlir::Type argumentType(mlir::Type type) const { return type; }
  /// The most arguments a merged kernel takes for constants.
  virtual unsigned maxParameters() const { return kMaxParameters; }
  /// The function's properties that are no part of its shape (beyond its
  /// name).
  virtual llvm::ArrayRef<llvm::StringRef> ignoredProperties() const {
    return {};
  }
};

/// A kernel's operations in pre-order, its values and blocks numbered in
/// the order they appear, and the uses of constants that may become
/// arguments set apart. Two kernels have the same shape when their tokens
/// are equal and their operations' properties match but for the values
/// those uses read. A constant is no token of its own: each use stands for
/// the value it reads, a parameter or not. The canonicaliser shares one
/// constant among all the uses of a value, so a 3x3x3x64 filter's update
/// (loop bounds 3, 3 and 3: one constant) and a 3x3x64x64 one's (3, 3 and
/// 64: two) differ in which uses share a constant, not in what they
/// compute.
class KernelShape {
public:
  KernelShape(mlir::FunctionOpInterface f, const KernelPolicy &policy);

  bool operator==(const KernelShape &other) const;

  mlir::FunctionOpInterface function;
  llvm::hash_code hash;
  /// The uses of the constants that may become arguments, in order.
  llvm::SmallVector<mlir::OpOperand *> parameters;

  /// The value the `i`-th parameter reads.
  mlir::Attribute parameterValue(unsigned i) const {
    return policy.parameterValue(parameters[i]->get().getDefiningOp());
  }

private:
  void token(const void *pointer) {
    tokens.push_back(reinterpret_cast<uintptr_t>(pointer));
  }
  void token(size_t n) { tokens.push_back(n); }
  size_t id(mlir::Value v) {
    return values.try_emplace(v, values.size()).first->second;
  }
  size_t id(mlir::Block *b) {
    return blocks.try_emplace(b, blocks.size()).first->second;
  }
  void addRegion(mlir::Region &region, bool isBody);
  void addOp(mlir::Operation *op);

  const KernelPolicy &policy;
  /// Operations whose properties are compared (all but the parameters).
  llvm::SmallVector<mlir::Operation *> ops;
  llvm::SmallVector<uintptr_t> tokens;
  llvm::DenseMap<mlir::Value, size_t> values;
  llvm::DenseMap<mlir::Block *, size_t> blocks;
};

/// The values each parameter reads across a group of kernels, for the
/// parameters whose values differ, and which parameters read each such
/// column of values. A column whose every value is the same integer
/// multiple of another's (the offsets of a register tile's rows, i times
/// the row stride, or a buffer's strides) is computed from that column's
/// argument in the merged kernel; every other column is an argument.
struct Columns {
  llvm::MapVector<llvm::SmallVector<mlir::Attribute>,
                  llvm::SmallVector<unsigned>>
      uses;
  /// Per column: the column whose value it multiplies and the factor, or
  /// none (its own argument).
  struct Multiple {
    unsigned base;
    int64_t factor;
  };
  llvm::SmallVector<std::optional<Multiple>> multiples;

  size_t size() const { return uses.size(); }
  unsigned numArguments() const { return llvm::count(multiples, std::nullopt); }
};

Columns columnsOf(llvm::ArrayRef<KernelShape *> group);

/// The values the call to the `i`-th kernel of a group passes, one per
/// argument column of `columns`.
llvm::SmallVector<mlir::Attribute> columnValues(const Columns &columns,
                                                unsigned i);

/// The value each column reads in the merged kernel: its argument (the
/// argument columns in order read `arguments`), or a multiple of another
/// column's argument, computed where `b` inserts with `policy`.
llvm::SmallVector<mlir::Value> columnScalars(const Columns &columns,
                                             mlir::ValueRange arguments,
                                             mlir::OpBuilder &b,
                                             const KernelPolicy &policy);

/// Makes each use of a parameter of `first`, the kernel a group merges
/// into, whose values differ across the group (one in `columns`) read
/// `value(c, use)` instead, c its column's position; erases the constants
/// left unused.
void bindParameters(
    KernelShape &first, const Columns &columns,
    llvm::function_ref<mlir::Value(unsigned c, mlir::OpOperand &use)> value);

/// `kernels`' shapes, computed in parallel (reading a kernel's shape only
/// reads the kernel), and the groups of them to merge: kernels of one
/// shape, each group the first kernel left and every other kernel left
/// that keeps it within the policy's maxParameters arguments. A shape that no
/// other kernel has is in no group.
struct KernelGroups {
  std::vector<std::optional<KernelShape>> shapes;
  llvm::SmallVector<llvm::SmallVector<KernelShape *>> groups;
};
KernelGroups groupKernels(mlir::MLIRContext *context,
                          llvm::ArrayRef<mlir::FunctionOpInterface> kernels,
                          const KernelPolicy &policy);

} // namespace nnc::cpu

#endif // NNC_CODEGEN_CPU_KERNELSHAPE_H
