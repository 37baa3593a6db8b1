//===- CallComponents.cpp - module passes on independent function groups --===//
//
// Part of nnc. nnc-nest-call-components and nnc-flatten-call-components
// (Passes.td): a pipeline nested on builtin.module between the two runs its
// module passes on each group of functions that call one another, the
// groups in parallel.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace nnc {
#define GEN_PASS_DEF_NESTCALLCOMPONENTSPASS
#define GEN_PASS_DEF_FLATTENCALLCOMPONENTSPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
/// Marks the modules nnc-nest-call-components makes.
constexpr llvm::StringLiteral kComponentAttr = "nnc.call_component";
/// On the top module in between: the names of its symbols, in their order.
constexpr llvm::StringLiteral kOrderAttr = "nnc.call_component_order";

StringAttr symbolName(Operation *op) {
  return op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
}

/// Top-level ops that reach one another through the symbols they use.
struct Group {
  SmallVector<Operation *> ops;
  uint64_t size = 0; ///< ops, nested ones included
};

/// The groups of `module`'s top-level ops, in the order of their first
/// ops.
SmallVector<Group> groupBySymbolUses(ModuleOp module) {
  SmallVector<Operation *> ops;
  DenseMap<Operation *, unsigned> index;
  llvm::EquivalenceClasses<unsigned> classes;
  for (Operation &op : *module.getBody()) {
    index[&op] = ops.size();
    classes.insert(ops.size());
    ops.push_back(&op);
  }
  SymbolTable table(module);
  for (Operation *op : ops) {
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(op);
    if (!uses) {
      // Uses that cannot be listed: everything stays together.
      for (unsigned i = 1; i < ops.size(); ++i)
        classes.unionSets(0, i);
      break;
    }
    for (const SymbolTable::SymbolUse &use : *uses)
      if (Operation *symbol =
              table.lookup(use.getSymbolRef().getRootReference()))
        classes.unionSets(index[op], index[symbol]);
  }
  llvm::MapVector<unsigned, Group> groups;
  for (auto [i, op] : llvm::enumerate(ops)) {
    Group &group = groups[classes.getLeaderValue(i)];
    group.ops.push_back(op);
    op->walk([&](Operation *) { ++group.size; });
  }
  return llvm::to_vector(llvm::make_second_range(groups.takeVector()));
}

struct NestCallComponentsPass
    : nnc::impl::NestCallComponentsPassBase<NestCallComponentsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Group> groups = groupBySymbolUses(module);
    // Only groups with code to transform: parameters and declarations
    // nothing defined uses stay where they are.
    llvm::erase_if(groups, [](const Group &group) {
      return llvm::none_of(group.ops, [](Operation *op) {
        auto f = dyn_cast<func::FuncOp>(op);
        return f && !f.isExternal();
      });
    });
    if (groups.empty())
      return;
    Builder b(&getContext());
    SmallVector<Attribute> order;
    for (Operation &op : *module.getBody())
      if (StringAttr name = symbolName(&op))
        order.push_back(name);
    NamedAttrList attrs(module->getAttrDictionary());
    attrs.erase(SymbolTable::getSymbolAttrName());
    attrs.set(kComponentAttr, b.getUnitAttr());
    DictionaryAttr partAttrs = attrs.getDictionary(&getContext());
    // Largest first: the pass manager hands the modules to its threads in
    // their order.
    llvm::stable_sort(
        groups, [](const Group &x, const Group &y) { return x.size > y.size; });
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    for (const Group &group : groups) {
      auto part = ModuleOp::create(builder, module.getLoc());
      part->setAttrs(partAttrs);
      for (Operation *op : group.ops)
        op->moveBefore(part.getBody(), part.getBody()->end());
    }
    module->setAttr(kOrderAttr, b.getArrayAttr(order));
  }
};

struct FlattenCallComponentsPass
    : nnc::impl::FlattenCallComponentsPassBase<FlattenCallComponentsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<ModuleOp> parts;
    for (auto part : module.getOps<ModuleOp>())
      if (part->hasAttr(kComponentAttr))
        parts.push_back(part);
    if (parts.empty())
      return;
    llvm::StringMap<unsigned> position;
    if (auto order = module->getAttrOfType<ArrayAttr>(kOrderAttr))
      for (auto [i, name] :
           llvm::enumerate(order.getAsValueRange<StringAttr>()))
        position[name] = i;
    module->removeAttr(kOrderAttr);
    // Names a symbol made in a part must not take: those the module had.
    llvm::StringSet<> taken;
    for (const auto &entry : position)
      taken.insert(entry.getKey());
    // Each op's place: its symbol's position; an op without a name stays
    // after the symbol it followed. Symbols made in the parts go first.
    using Place = std::pair<int64_t, unsigned>;
    SmallVector<std::pair<Place, Operation *>> placed;
    int64_t last = -1;
    for (Operation &op : *module.getBody()) {
      if (llvm::is_contained(parts, dyn_cast<ModuleOp>(op)))
        continue;
      StringAttr name = symbolName(&op);
      auto it = name ? position.find(name.getValue()) : position.end();
      if (it != position.end())
        last = it->second;
      placed.push_back({{last, it == position.end()}, &op});
      if (name)
        taken.insert(name.getValue());
    }
    for (ModuleOp part : parts) {
      SymbolTable partTable(part);
      for (Operation &op : *part.getBody()) {
        StringAttr name = symbolName(&op);
        auto it = name ? position.find(name.getValue()) : position.end();
        if (it != position.end()) {
          placed.push_back({{it->second, 0}, &op});
          continue;
        }
        if (name && taken.contains(name.getValue())) {
          unsigned suffix = 0;
          std::string unique;
          do
            unique = (name.getValue() + "_" + Twine(suffix++)).str();
          while (taken.contains(unique) || partTable.lookup(unique));
          if (failed(partTable.rename(&op, unique)))
            return signalPassFailure();
          name = symbolName(&op);
        }
        if (name)
          taken.insert(name.getValue());
        placed.push_back({{-2, 0}, &op});
      }
    }
    llvm::stable_sort(
        placed, [](const auto &x, const auto &y) { return x.first < y.first; });
    Block *body = module.getBody();
    for (auto [place, op] : placed)
      op->moveBefore(body, body->end());
    for (ModuleOp part : parts)
      part.erase();
  }
};
} // namespace
