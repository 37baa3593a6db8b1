//===- nnc-opt.cpp - run nnc passes on .mlir files ------------------------===//
//
// Part of nnc. Like mlir-opt, with the nn dialect and every nnc pass.
//
//===----------------------------------------------------------------------===//

#include "nnc/Driver/Registration.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  nnc::registerAllDialects(registry);
  nnc::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "nnc optimizer driver\n", registry));
}
