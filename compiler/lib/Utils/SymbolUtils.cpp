//===- SymbolUtils.cpp - symbols a part of a module uses from the rest ----===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Utils/SymbolUtils.h"

#include "mlir/IR/Threading.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace {
/// The root references of the symbols that attributes refer to, each
/// distinct attribute looked into once: attributes are uniqued, and the
/// same few (a callee, an LLVM op's flags) recur on thousands of ops.
class SymbolRefs {
public:
  /// The references in `attr`, as SymbolTable::getSymbolUses finds them (a
  /// nested reference is not one of its own).
  ArrayRef<StringAttr> in(Attribute attr) {
    auto [it, inserted] = cache.try_emplace(attr);
    if (inserted)
      attr.walk<WalkOrder::PreOrder>(
          [&, &refs = it->second](SymbolRefAttr ref) {
            refs.push_back(ref.getRootReference());
            return WalkResult::skip();
          });
    return it->second;
  }

  /// Appends the references in `op`'s attributes to `refs`, in the order of
  /// its attribute dictionary, without building it: an op whose inherent
  /// attributes are properties builds (and uniques) a new dictionary each
  /// time, which was most of this scan's time.
  void appendOf(Operation *op, SmallVectorImpl<StringAttr> &refs) {
    NamedAttrList attrs(op->getRawDictionaryAttrs());
    if (op->getPropertiesStorageSize())
      op->getName().populateInherentAttrs(op, attrs);
    SmallVector<NamedAttribute> sorted(attrs.begin(), attrs.end());
    llvm::sort(sorted);
    for (NamedAttribute attr : sorted)
      llvm::append_range(refs, in(attr.getValue()));
  }

private:
  DenseMap<Attribute, SmallVector<StringAttr, 1>> cache;
};

/// Whether `op` may hold a symbol table of its own that nothing knows of
/// (as SymbolTable's walks, which give up on it).
bool isPotentiallyUnknownSymbolTable(Operation *op) {
  return op->getNumRegions() && !op->getDialect();
}

/// The references of `from` and the ops nested in it (not inside a nested
/// symbol table), in SymbolTable::getSymbolUses's order: false where that
/// gives up (an unregistered op with regions).
bool symbolRefsOf(Operation *from, SymbolRefs &finder,
                  SmallVectorImpl<StringAttr> &refs) {
  if (isPotentiallyUnknownSymbolTable(from))
    return false;
  finder.appendOf(from, refs);
  if (from->hasTrait<OpTrait::SymbolTable>())
    return true;
  SmallVector<Region *, 1> worklist(
      llvm::make_pointer_range(from->getRegions()));
  while (!worklist.empty()) {
    for (Operation &op : worklist.pop_back_val()->getOps()) {
      if (isPotentiallyUnknownSymbolTable(&op))
        return false;
      finder.appendOf(&op, refs);
      if (!op.hasTrait<OpTrait::SymbolTable>())
        for (Region &region : op.getRegions())
          worklist.push_back(&region);
    }
  }
  return true;
}
} // namespace

/// The foreign symbols of one part (nnc::foreignSymbols).
static SmallVector<Operation *> foreignSymbolsOf(ModuleOp part,
                                                 SymbolTable &whole) {
  llvm::StringSet<> seen;
  for (Operation &op : *part.getBody())
    if (auto name =
            op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
      seen.insert(name.getValue());
  SmallVector<Operation *> symbols;
  SymbolRefs finder;
  SmallVector<StringAttr> refs;
  for (Operation &op : *part.getBody()) {
    refs.clear();
    if (!symbolRefsOf(&op, finder, refs))
      continue;
    for (StringAttr name : refs) {
      if (!seen.insert(name.getValue()).second)
        continue;
      if (Operation *symbol = whole.lookup(name))
        symbols.push_back(symbol);
    }
  }
  return symbols;
}

std::vector<SmallVector<Operation *>>
nnc::foreignSymbols(ArrayRef<ModuleOp> parts, SymbolTable &whole) {
  std::vector<SmallVector<Operation *>> symbols(parts.size());
  parallelFor(whole.getOp()->getContext(), 0, parts.size(), [&](size_t i) {
    symbols[i] = foreignSymbolsOf(parts[i], whole);
  });
  return symbols;
}
