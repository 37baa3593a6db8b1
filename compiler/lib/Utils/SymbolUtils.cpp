//===- SymbolUtils.cpp - symbols a part of a module uses from the rest ----===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Utils/SymbolUtils.h"

#include "mlir/IR/Threading.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

/// The foreign symbols of one part (nnc::foreignSymbols).
static SmallVector<Operation *> foreignSymbolsOf(ModuleOp part,
                                                 SymbolTable &whole) {
  llvm::StringSet<> seen;
  for (Operation &op : *part.getBody())
    if (auto name =
            op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
      seen.insert(name.getValue());
  SmallVector<Operation *> symbols;
  for (Operation &op : *part.getBody()) {
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(&op);
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &symbolUse : *uses) {
      StringAttr name = symbolUse.getSymbolRef().getRootReference();
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
