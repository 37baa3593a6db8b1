//===- SymbolUtils.cpp - symbols a part of a module uses from the rest ----===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Utils/SymbolUtils.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;

void nnc::forEachForeignSymbol(ModuleOp part, SymbolTable &whole,
                               llvm::function_ref<void(Operation *)> use) {
  llvm::StringSet<> seen;
  for (Operation &op : *part.getBody())
    if (auto name =
            op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
      seen.insert(name.getValue());
  SmallVector<Operation *> ops = llvm::to_vector(
      llvm::make_pointer_range(part.getBody()->getOperations()));
  for (Operation *op : ops) {
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(op);
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &symbolUse : *uses) {
      StringAttr name = symbolUse.getSymbolRef().getRootReference();
      if (!seen.insert(name.getValue()).second)
        continue;
      if (Operation *symbol = whole.lookup(name))
        use(symbol);
    }
  }
}
