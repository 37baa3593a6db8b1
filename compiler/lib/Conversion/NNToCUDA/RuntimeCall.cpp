//===- RuntimeCall.cpp - calls into libnnrt's CUDA part on tensors --------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCall.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace nnc::cuda;

namespace {
/// The memref every call passes: dynamic sizes, identity layout.
MemRefType dynamicType(ShapedType type) {
  SmallVector<int64_t> shape(type.getRank(), ShapedType::kDynamic);
  return MemRefType::get(shape, type.getElementType());
}

/// The declaration of `nnrt_cuda_<name>` for these argument types, created
/// on first use.
func::FuncOp declare(OpBuilder &b, ModuleOp module, StringRef name,
                     TypeRange types) {
  std::string symbol = ("nnrt_cuda_" + name).str();
  if (auto fn = module.lookupSymbol<func::FuncOp>(symbol))
    return fn;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto fn = func::FuncOp::create(b, module.getLoc(), symbol,
                                 b.getFunctionType(types, {}));
  fn.setPrivate();
  fn->setAttr("llvm.emit_c_interface", b.getUnitAttr());
  return fn;
}

/// `x`, or for a splat constant (batch norm's scale of ones when the layer
/// has none) the same filled in by a kernel: a constant would bufferize
/// into a host global, and every buffer a call reads is on the device.
Value onDevice(OpBuilder &b, Location loc, Value x) {
  DenseElementsAttr value;
  if (!matchPattern(x, m_Constant(&value)) || !value.isSplat())
    return x;
  auto type = cast<RankedTensorType>(x.getType());
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  Value scalar = arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(value.getSplatValue<Attribute>()));
  return linalg::FillOp::create(b, loc, scalar, init).getResult(0);
}

/// The address of a NUL-terminated global holding `text`.
Value stringAddress(OpBuilder &b, Location loc, ModuleOp module,
                    StringRef text) {
  std::string value = (text + Twine('\0')).str();
  // One global per distinct string.
  std::string symbol;
  for (auto global : module.getOps<LLVM::GlobalOp>())
    if (auto s = dyn_cast_or_null<StringAttr>(global.getValueOrNull()))
      if (s.getValue() == value &&
          global.getSymName().starts_with("nnrt_layer"))
        symbol = global.getSymName().str();
  if (symbol.empty()) {
    unsigned n = 0;
    for (auto global : module.getOps<LLVM::GlobalOp>())
      n += global.getSymName().starts_with("nnrt_layer");
    symbol = "nnrt_layer" + std::to_string(n);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), value.size());
    LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                           LLVM::Linkage::Internal, symbol,
                           b.getStringAttr(value));
  }
  return LLVM::AddressOfOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), symbol);
}
} // namespace

std::string nnc::cuda::layerName(Location loc) {
  std::string name, where;
  loc->walk([&](Location l) {
    if (auto named = dyn_cast<NameLoc>(l); named && name.empty())
      name = named.getName().str();
    if (auto file = dyn_cast<FileLineColLoc>(l); file && where.empty())
      where = (file.getFilename().strref() + ":" + Twine(file.getLine()) + ":" +
               Twine(file.getColumn()))
                  .str();
    return WalkResult::advance();
  });
  if (name.empty())
    return where.empty() ? "(unnamed)" : where;
  return where.empty() ? name : name + " (" + where + ")";
}

Value nnc::cuda::callRuntime(OpBuilder &b, Location loc, StringRef name,
                             ValueRange inputs, RankedTensorType resultType,
                             ArrayRef<Scalar> scalars) {
  return callRuntime(b, loc, name, inputs,
                     ArrayRef<RankedTensorType>{resultType}, scalars)
      .front();
}

SmallVector<Value> nnc::cuda::callRuntime(
    OpBuilder &b, Location loc, StringRef name, ValueRange inputs,
    ArrayRef<RankedTensorType> resultTypes, ArrayRef<Scalar> scalars) {
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  SmallVector<Value> args;
  SmallVector<Type> types;
  auto pass = [&](Value buffer, ShapedType type) {
    MemRefType dynamic = dynamicType(type);
    args.push_back(memref::CastOp::create(b, loc, dynamic, buffer));
    types.push_back(dynamic);
  };
  for (Value input : inputs) {
    input = onDevice(b, loc, input);
    auto type = cast<RankedTensorType>(input.getType());
    auto memref = MemRefType::get(type.getShape(), type.getElementType());
    pass(bufferization::ToBufferOp::create(b, loc, memref, input,
                                           /*read_only=*/true),
         type);
  }
  SmallVector<Value> outs;
  for (RankedTensorType resultType : resultTypes) {
    auto outType =
        MemRefType::get(resultType.getShape(), resultType.getElementType());
    outs.push_back(memref::AllocOp::create(b, loc, outType));
    pass(outs.back(), outType);
  }
  for (const Scalar &s : scalars) {
    Value v = s.isFloat
                  ? arith::ConstantOp::create(b, loc, b.getF64FloatAttr(s.f))
                        .getResult()
                  : arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(s.i))
                        .getResult();
    args.push_back(v);
    types.push_back(v.getType());
  }
  args.push_back(stringAddress(b, loc, module, layerName(loc)));
  types.push_back(args.back().getType());
  bool bf16 = llvm::any_of(types, [](Type t) {
    auto m = dyn_cast<MemRefType>(t);
    return m && m.getElementType().isBF16();
  });
  func::FuncOp fn =
      declare(b, module, bf16 ? (name + "_bf16").str() : name.str(), types);
  func::CallOp::create(b, loc, fn, args);
  SmallVector<Value> results;
  for (auto [out, resultType] : llvm::zip(outs, resultTypes))
    results.push_back(bufferization::ToTensorOp::create(
        b, loc, resultType, out,
        /*restrict=*/b.getUnitAttr(), /*writable=*/b.getUnitAttr()));
  return results;
}

Value nnc::cuda::castTensor(OpBuilder &b, Location loc, Value x, Type element) {
  auto type = cast<RankedTensorType>(x.getType());
  if (type.getElementType() == element)
    return x;
  auto resultType = RankedTensorType::get(type.getShape(), element);
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), element);
  unsigned rank = type.getRank();
  SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  bool narrower = element.getIntOrFloatBitWidth() <
                  type.getElementType().getIntOrFloatBitWidth();
  return linalg::GenericOp::create(
             b, loc, resultType, ValueRange{x}, ValueRange{init}, maps, iters,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value v = narrower
                             ? arith::TruncFOp::create(nb, l, element, args[0])
                                   .getResult()
                             : arith::ExtFOp::create(nb, l, element, args[0])
                                   .getResult();
               linalg::YieldOp::create(nb, l, v);
             })
      .getResult(0);
}
