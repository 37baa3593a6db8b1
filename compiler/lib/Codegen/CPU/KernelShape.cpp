//===- KernelShape.cpp - kernels equal but for some constants -------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "KernelShape.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/SetVector.h"

#include <limits>

using namespace mlir;
using namespace nnc::cpu;

KernelShape::KernelShape(FunctionOpInterface f, const KernelPolicy &policy)
    : function(f), policy(policy) {
  NamedAttrList attrs(
      cast<DictionaryAttr>(f->getPropertiesAsAttribute()).getValue());
  attrs.erase(SymbolTable::getSymbolAttrName());
  for (StringRef name : policy.ignoredProperties())
    attrs.erase(name);
  token(attrs.getDictionary(f->getContext()).getAsOpaquePointer());
  token(f->getRawDictionaryAttrs().getAsOpaquePointer());
  addRegion(f.getFunctionBody(), /*isBody=*/true);
  hash = llvm::hash_combine_range(tokens.begin(), tokens.end());
}

bool KernelShape::operator==(const KernelShape &other) const {
  if (hash != other.hash || tokens != other.tokens)
    return false;
  for (auto [x, y] : llvm::zip_equal(ops, other.ops))
    if (!x->getName().compareOpProperties(x->getPropertiesStorage(),
                                          y->getPropertiesStorage()))
      return false;
  return true;
}

void KernelShape::addRegion(Region &region, bool isBody) {
  token(region.getBlocks().size());
  for (Block &block : region) {
    token(id(&block));
    token(block.getNumArguments());
    bool entry = isBody && &block == &region.front();
    for (BlockArgument arg : block.getArguments()) {
      Type type = entry ? policy.argumentType(arg.getType()) : arg.getType();
      token(type.getAsOpaquePointer());
      token(id(arg));
    }
    for (Operation &op : block)
      addOp(&op);
  }
}

void KernelShape::addOp(Operation *op) {
  if (policy.isConstant(op))
    return; // its uses stand for it
  token(op->getName().getAsOpaquePointer());
  token(op->getRawDictionaryAttrs().getAsOpaquePointer());
  ops.push_back(op);
  token(static_cast<size_t>(op->hashProperties()));
  token(op->getNumOperands());
  for (OpOperand &operand : op->getOpOperands()) {
    Operation *constant = operand.get().getDefiningOp();
    if (!constant || !policy.isConstant(constant)) {
      token(size_t{0});
      token(id(operand.get()));
      continue;
    }
    bool parameter = policy.isParameter(operand);
    token(size_t{parameter ? 2u : 1u});
    token(operand.get().getType().getAsOpaquePointer());
    if (parameter)
      parameters.push_back(&operand); // its value may differ
    else
      token(policy.constantValue(constant).getAsOpaquePointer());
  }
  token(op->getNumResults());
  for (Value result : op->getResults()) {
    token(result.getType().getAsOpaquePointer());
    token(id(result));
  }
  token(op->getNumSuccessors());
  for (Block *successor : op->getSuccessors())
    token(id(successor));
  token(op->getNumRegions());
  for (Region &region : op->getRegions())
    addRegion(region, /*isBody=*/false);
}

namespace {
/// The integers of `column`, or none if some value is no integer.
std::optional<SmallVector<int64_t>> integers(ArrayRef<Attribute> column) {
  SmallVector<int64_t> values;
  for (Attribute a : column) {
    auto integer = dyn_cast<IntegerAttr>(a);
    if (!integer)
      return std::nullopt;
    values.push_back(integer.getValue().getSExtValue());
  }
  return values;
}

/// The integer by which every value of `base` multiplies into the same
/// value of `column`, if there is one.
std::optional<int64_t> commonFactor(ArrayRef<int64_t> column,
                                    ArrayRef<int64_t> base) {
  std::optional<int64_t> factor;
  for (auto [v, b] : llvm::zip_equal(column, base)) {
    // The one quotient of two int64_t that overflows: INT64_MIN / -1.
    if (b == 0 || (b == -1 && v == std::numeric_limits<int64_t>::min()) ||
        v % b != 0 || (factor && v / b != *factor))
      return std::nullopt;
    factor = v / b;
  }
  return factor;
}

/// Which columns are multiples of another: visited from the smallest
/// values up, each is a multiple of an argument column seen before it or
/// an argument itself. The kernels of convolutions over different channel
/// counts differ in their row strides and in every multiple of them that
/// a register tile's rows or a sum over split partial results add: 17
/// columns where two are arguments. Inception-v3's contraction kernels
/// went from 115 to 104 so (its functions in the LLVM dialect 594 to 538),
/// VGG16's from 36 to 31 and ResNet-50's from 54 to 51.
void findMultiples(Columns &columns) {
  SmallVector<std::optional<SmallVector<int64_t>>> values;
  SmallVector<uint64_t> magnitudes;
  SmallVector<unsigned> order;
  for (auto [i, column] : llvm::enumerate(columns.uses.keys())) {
    values.push_back(integers(column));
    uint64_t largest = 0;
    if (values.back())
      for (int64_t v : *values.back())
        largest = std::max(largest, v < 0 ? 0 - uint64_t(v) : uint64_t(v));
    magnitudes.push_back(largest);
    order.push_back(i);
  }
  llvm::stable_sort(order, [&](unsigned x, unsigned y) {
    return magnitudes[x] < magnitudes[y];
  });
  columns.multiples.assign(values.size(), std::nullopt);
  SmallVector<unsigned> arguments;
  for (unsigned i : order) {
    for (unsigned base : arguments) {
      if (!values[i] || !values[base])
        continue;
      if (std::optional<int64_t> factor =
              commonFactor(*values[i], *values[base])) {
        columns.multiples[i] = Columns::Multiple{base, *factor};
        break;
      }
    }
    if (!columns.multiples[i])
      arguments.push_back(i);
  }
}
} // namespace

Columns nnc::cpu::columnsOf(ArrayRef<KernelShape *> group) {
  Columns columns;
  for (unsigned i = 0, e = group.front()->parameters.size(); i < e; ++i) {
    SmallVector<Attribute> column;
    for (KernelShape *shape : group)
      column.push_back(shape->parameterValue(i));
    if (llvm::any_of(column, [&](Attribute a) { return a != column.front(); }))
      columns.uses[column].push_back(i);
  }
  findMultiples(columns);
  return columns;
}

SmallVector<Attribute> nnc::cpu::columnValues(const Columns &columns,
                                              unsigned i) {
  SmallVector<Attribute> values;
  for (auto [column, multiple] :
       llvm::zip_equal(columns.uses.keys(), columns.multiples))
    if (!multiple)
      values.push_back(column[i]);
  return values;
}

SmallVector<Value> nnc::cpu::columnScalars(const Columns &columns,
                                           ValueRange arguments, OpBuilder &b,
                                           const KernelPolicy &policy) {
  SmallVector<Value> scalars(columns.size());
  unsigned n = 0;
  for (auto [i, multiple] : llvm::enumerate(columns.multiples))
    if (!multiple)
      scalars[i] = arguments[n++];
  for (auto [i, multiple] : llvm::enumerate(columns.multiples))
    if (multiple)
      scalars[i] =
          policy.multiply(b, scalars[multiple->base], multiple->factor);
  return scalars;
}

void nnc::cpu::bindParameters(
    KernelShape &first, const Columns &columns,
    function_ref<Value(unsigned c, OpOperand &use)> value) {
  SetVector<Operation *> constants;
  for (auto [c, entry] : llvm::enumerate(columns.uses))
    for (unsigned i : entry.second) {
      OpOperand *use = first.parameters[i];
      constants.insert(use->get().getDefiningOp());
      use->set(value(c, *use));
    }
  for (Operation *c : constants)
    if (c->use_empty())
      c->erase();
}

namespace {
struct KernelShapeInfo : DenseMapInfo<const KernelShape *> {
  static unsigned getHashValue(const KernelShape *shape) {
    return static_cast<size_t>(shape->hash);
  }
  static bool isEqual(const KernelShape *x, const KernelShape *y) {
    if (x == y)
      return true;
    if (x == getEmptyKey() || x == getTombstoneKey() || y == getEmptyKey() ||
        y == getTombstoneKey())
      return false;
    return *x == *y;
  }
};

/// Splits `group`, kernels of one shape, into groups that each take at most
/// `limit` arguments merged: each one the first kernel left and
/// every other kernel left that keeps it within the bound.
void splitGroup(ArrayRef<KernelShape *> group, unsigned limit,
                SmallVectorImpl<SmallVector<KernelShape *>> &parts) {
  SmallVector<KernelShape *> left(group);
  while (left.size() > 1) {
    SmallVector<KernelShape *> part = {left.front()}, rest;
    for (KernelShape *shape : llvm::drop_begin(left)) {
      part.push_back(shape);
      if (columnsOf(part).numArguments() > limit) {
        part.pop_back();
        rest.push_back(shape);
      }
    }
    if (part.size() > 1)
      parts.push_back(std::move(part));
    left = std::move(rest);
  }
}
} // namespace

KernelGroups nnc::cpu::groupKernels(MLIRContext *context,
                                    ArrayRef<FunctionOpInterface> kernels,
                                    const KernelPolicy &policy) {
  KernelGroups result;
  result.shapes.resize(kernels.size());
  parallelFor(context, 0, kernels.size(),
              [&](size_t i) { result.shapes[i].emplace(kernels[i], policy); });
  llvm::MapVector<const KernelShape *, SmallVector<KernelShape *>,
                  DenseMap<const KernelShape *, unsigned, KernelShapeInfo>>
      shapes;
  for (std::optional<KernelShape> &shape : result.shapes)
    shapes[&*shape].push_back(&*shape);
  for (auto &[key, group] : shapes)
    splitGroup(group, policy.maxParameters(), result.groups);
  return result;
}
