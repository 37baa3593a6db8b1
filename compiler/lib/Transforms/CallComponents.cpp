//===- CallComponents.cpp - module passes on parts of a module ------------===//
//
// Part of nnc. nnc-nest-call-components, nnc-nest-function-parts and
// nnc-flatten-call-components (Passes.td): a pipeline nested on
// builtin.module between a nesting pass and the flattening runs its module
// passes on each part of the module, the parts in parallel.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"
#include "nnc/Utils/LoopUtils.h"
#include "nnc/Utils/SymbolUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"

namespace nnc {
#define GEN_PASS_DEF_NESTCALLCOMPONENTSPASS
#define GEN_PASS_DEF_NESTFUNCTIONPARTSPASS
#define GEN_PASS_DEF_FLATTENCALLCOMPONENTSPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
/// Marks the modules the nesting passes make.
constexpr llvm::StringLiteral kComponentAttr = "nnc.call_component";
/// On the top module in between: the names of its symbols, in their order.
constexpr llvm::StringLiteral kOrderAttr = "nnc.call_component_order";
/// Marks the copies of a symbol nnc-nest-function-parts puts in the parts
/// that use it.
constexpr llvm::StringLiteral kCopyAttr = "nnc.call_component_copy";

StringAttr symbolName(Operation *op) {
  return op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
}

bool isDeclaration(Operation *op) {
  if (auto f = dyn_cast<FunctionOpInterface>(op))
    return f.isExternal();
  auto symbol = dyn_cast<SymbolOpInterface>(op);
  return symbol && symbol.isDeclaration();
}

bool definesFunction(Operation *op) {
  auto f = dyn_cast<func::FuncOp>(op);
  return f && !f.isExternal();
}

uint64_t numOps(Operation *op) {
  uint64_t n = 0;
  op->walk([&](Operation *) { ++n; });
  return n;
}

/// Top-level ops that go into one nested module.
struct Group {
  SmallVector<Operation *> ops;
  uint64_t size = 0; ///< ops, nested ones included
};

/// Moves each group into a module of its own at the end of `module`'s
/// body, the largest first (the pass manager hands the modules to its
/// threads in their order), with `module`'s attributes; records the order
/// of `module`'s symbols for the flattening. Returns the new modules.
SmallVector<ModuleOp> nestGroups(ModuleOp module, SmallVector<Group> groups) {
  Builder b(module.getContext());
  SmallVector<Attribute> order;
  for (Operation &op : *module.getBody())
    if (StringAttr name = symbolName(&op))
      order.push_back(name);
  NamedAttrList attrs(module->getAttrDictionary());
  attrs.erase(SymbolTable::getSymbolAttrName());
  attrs.set(kComponentAttr, b.getUnitAttr());
  DictionaryAttr partAttrs = attrs.getDictionary(module.getContext());
  llvm::stable_sort(
      groups, [](const Group &x, const Group &y) { return x.size > y.size; });
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  SmallVector<ModuleOp> parts;
  for (const Group &group : groups) {
    auto part = ModuleOp::create(builder, module.getLoc());
    part->setAttrs(partAttrs);
    for (Operation *op : group.ops)
      op->moveBefore(part.getBody(), part.getBody()->end());
    parts.push_back(part);
  }
  module->setAttr(kOrderAttr, b.getArrayAttr(order));
  return parts;
}

/// The groups of `module`'s top-level ops that reach one another through
/// the symbols they use, in the order of their first ops.
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
    group.size += numOps(op);
  }
  return llvm::to_vector(llvm::make_second_range(groups.takeVector()));
}

struct NestCallComponentsPass
    : nnc::impl::NestCallComponentsPassBase<NestCallComponentsPass> {
  void runOnOperation() override {
    SmallVector<Group> groups = groupBySymbolUses(getOperation());
    // Only groups with code to transform: parameters and declarations
    // nothing defined uses stay where they are.
    llvm::erase_if(groups, [](const Group &group) {
      return llvm::none_of(group.ops, definesFunction);
    });
    if (!groups.empty())
      nestGroups(getOperation(), std::move(groups));
  }
};

/// Declares in `part` the symbols of `uses`, which it does not hold: a
/// function as a private declaration (without a C interface, which would
/// give it a body), anything else whole.
void declareUses(ModuleOp part, ArrayRef<Operation *> uses) {
  OpBuilder b = OpBuilder::atBlockBegin(part.getBody());
  for (Operation *symbol : uses) {
    auto f = dyn_cast<func::FuncOp>(symbol);
    if (!f) {
      b.clone(*symbol)->setAttr(kCopyAttr, b.getUnitAttr());
      continue;
    }
    auto decl = cast<func::FuncOp>(b.cloneWithoutRegions(*f));
    decl.setPrivate();
    decl->removeAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName());
  }
}

/// Whether `f` is a declaration, or a straight line of code that calls
/// another function.
bool isSequencer(func::FuncOp f) {
  if (f.isDeclaration())
    return true;
  return nnc::isStraightLine(f.getBody()) &&
         llvm::any_of(f.getBody().front(),
                      [](Operation &op) { return isa<func::CallOp>(op); });
}

/// Deals `functions` into at most `numParts` groups of about equal sizes:
/// the heaviest first, each into the lightest group.
SmallVector<Group>
deal(MutableArrayRef<std::pair<uint64_t, Operation *>> functions,
     unsigned numParts) {
  llvm::stable_sort(functions,
                    [](auto x, auto y) { return x.first > y.first; });
  SmallVector<Group> groups(std::min<size_t>(numParts, functions.size()));
  for (auto [size, op] : functions) {
    Group &lightest = *llvm::min_element(
        groups, [](const Group &x, const Group &y) { return x.size < y.size; });
    lightest.ops.push_back(op);
    lightest.size += size;
  }
  return groups;
}

struct NestFunctionPartsPass
    : nnc::impl::NestFunctionPartsPassBase<NestFunctionPartsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Only functions move (declarations too, to be converted with the
    // rest): anything else at the top is copied where it is used, which
    // suits ops of the LLVM dialect (the passes leave them be) and nothing
    // else. Then the module is one part.
    bool splittable = llvm::all_of(*module.getBody(), [](Operation &op) {
      return isa<func::FuncOp>(op) || isa<LLVM::LLVMDialect>(op.getDialect());
    });
    unsigned numParts = parts ? parts : 4 * getContext().getNumThreads();
    if (!splittable)
      numParts = 1;
    // Functions without control flow that call others (a model's entry
    // points: calls, allocations, their buffers' views) and the others go
    // into separate parts, in proportion to their sizes: the conversions
    // of loops, vectors and threads then skip the former's parts whole
    // (nnc-run-where-present), and nnc-cpu-lower-entry-points lowers
    // them. A straight-line kernel (a scalar's store) goes with the loops.
    SmallVector<std::pair<uint64_t, Operation *>> functions[2];
    uint64_t sizes[2] = {0, 0};
    for (Operation &op : *module.getBody()) {
      if (!isa<func::FuncOp>(op) && (splittable || isa<ModuleOp>(op)))
        continue;
      auto f = dyn_cast<func::FuncOp>(op);
      unsigned straight = numParts > 1 && f && isSequencer(f);
      functions[straight].push_back({numOps(&op), &op});
      sizes[straight] += functions[straight].back().first;
    }
    if (functions[0].empty() && functions[1].empty())
      return;
    unsigned straightParts = numParts;
    if (functions[1].empty())
      straightParts = 0;
    else if (!functions[0].empty())
      straightParts = std::clamp<unsigned>(
          numParts * sizes[1] / (sizes[0] + sizes[1]), 1, numParts - 1);
    SmallVector<Group> groups = deal(functions[0], numParts - straightParts);
    groups.append(deal(functions[1], straightParts));
    // Each part keeps its functions in the module's order.
    DenseMap<Operation *, unsigned> index;
    for (auto [i, op] : llvm::enumerate(*module.getBody()))
      index[&op] = i;
    for (Group &group : groups)
      llvm::sort(group.ops, [&](Operation *x, Operation *y) {
        return index[x] < index[y];
      });
    SymbolTable whole(module);
    SmallVector<ModuleOp> parts = nestGroups(module, std::move(groups));
    std::vector<SmallVector<Operation *>> uses =
        nnc::foreignSymbols(parts, whole);
    for (auto [part, partUses] : llvm::zip_equal(parts, uses))
      declareUses(part, partUses);
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
    // Each op's place: its symbol's position; an op without a name stays
    // after the symbol it followed; symbols made in the parts go first.
    using Place = std::pair<int64_t, unsigned>;
    struct Entry {
      Place where;
      Operation *op;
      SymbolTable *table; ///< the part's, null at the top
    };
    SmallVector<Entry> placed;
    // One op per name: a definition over the declarations of it that other
    // parts hold, the original over the copies. Of two definitions, one in
    // a part is renamed, a private one (a symbol a pass made) rather than
    // a public one, else the later one.
    llvm::StringMap<size_t> chosen;
    SmallVector<Operation *> dropped;
    auto weaker = [](Operation *x, Operation *y) {
      auto rank = [](Operation *op) {
        return op->hasAttr(kCopyAttr) ? 0 : isDeclaration(op) ? 1 : 2;
      };
      return rank(x) < rank(y);
    };
    auto place = [&](Entry entry) -> LogicalResult {
      StringAttr name = symbolName(entry.op);
      auto it = name ? chosen.find(name.getValue()) : chosen.end();
      if (it != chosen.end()) {
        Entry &other = placed[it->second];
        if (weaker(other.op, entry.op))
          std::swap(other, entry);
        if (weaker(entry.op, other.op) || entry.op->hasAttr(kCopyAttr) ||
            isDeclaration(entry.op)) {
          dropped.push_back(entry.op);
          return success();
        }
        auto isPrivate = [](Operation *op) {
          return SymbolTable::getSymbolVisibility(op) ==
                 SymbolTable::Visibility::Private;
        };
        if (other.table &&
            (!entry.table || (isPrivate(other.op) && !isPrivate(entry.op))))
          std::swap(other, entry);
        unsigned suffix = 0;
        std::string unique;
        do
          unique = (name.getValue() + "_" + Twine(suffix++)).str();
        while (chosen.contains(unique) || position.contains(unique) ||
               entry.table->lookup(unique));
        if (failed(entry.table->rename(entry.op, unique)))
          return failure();
        name = symbolName(entry.op);
      }
      if (name)
        chosen[name.getValue()] = placed.size();
      placed.push_back(entry);
      return success();
    };
    int64_t last = -1;
    for (Operation &op : *module.getBody()) {
      if (llvm::is_contained(parts, dyn_cast<ModuleOp>(op)))
        continue;
      StringAttr name = symbolName(&op);
      auto it = name ? position.find(name.getValue()) : position.end();
      if (it != position.end())
        last = it->second;
      if (failed(place({{last, it == position.end()}, &op, nullptr})))
        return signalPassFailure();
    }
    std::vector<SymbolTable> tables;
    tables.reserve(parts.size());
    for (ModuleOp part : parts) {
      SymbolTable &table = tables.emplace_back(part);
      for (Operation &op : *part.getBody()) {
        StringAttr name = symbolName(&op);
        auto it = name ? position.find(name.getValue()) : position.end();
        Place where =
            it != position.end() ? Place{it->second, 0} : Place{-2, 0};
        if (failed(place({where, &op, &table})))
          return signalPassFailure();
      }
    }
    for (Operation *op : dropped)
      op->erase();
    llvm::stable_sort(placed, [](const Entry &x, const Entry &y) {
      return x.where < y.where;
    });
    Block *body = module.getBody();
    for (const Entry &entry : placed) {
      entry.op->removeAttr(kCopyAttr);
      entry.op->moveBefore(body, body->end());
    }
    for (ModuleOp part : parts)
      part.erase();
  }
};
} // namespace
