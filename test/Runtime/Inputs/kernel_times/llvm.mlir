#loc0 = loc("model.nn":1:1)
#loc1 = loc("c1"(#loc0))
#loc2 = loc("c2"(#loc0))
#loc3 = loc("logits"(#loc0))
#loc4 = loc("c1.bn"(#loc0))
#loc9 = loc("model.nn":9:1)
#loc10 = loc(callsite(#loc1 at #loc9))
#loc11 = loc(callsite(#loc2 at #loc9))
#loc12 = loc(callsite(#loc3 at #loc9))
#loc13 = loc(callsite(#loc4 at #loc9))
module {
  llvm.func @forward() {
    llvm.call @nnc_kernel_1() : () -> () loc(#loc10)
    llvm.return
  }
  llvm.func @training_pass() {
    llvm.call @nnc_kernel_1() : () -> () loc(#loc10)
    llvm.call @nnc_kernel_9() : () -> () loc(#loc13)
    llvm.call @nnc_kernel_2() : () -> () loc(#loc11)
    llvm.call @nnc_kernel_5() : () -> () loc(#loc12)
    llvm.call @nnc_kernel_3() : () -> () loc(#loc11)
    llvm.call @nnc_kernel_4() : () -> () loc(#loc11)
    llvm.call @nnc_kernel_4() : () -> () loc(#loc10)
    llvm.return
  }
  llvm.func @nnc_kernel_1() attributes {passthrough = ["noinline", "nnc-contraction"]} {
    llvm.return
  }
  llvm.func @nnc_kernel_2() attributes {passthrough = ["noinline", "nnc-contraction"]} {
    llvm.return
  }
  llvm.func @nnc_kernel_3() attributes {passthrough = ["noinline", "nnc-contraction"]} {
    llvm.return
  }
  llvm.func @nnc_kernel_4() attributes {passthrough = ["noinline", "nnc-contraction"]} {
    llvm.return
  }
  llvm.func @nnc_kernel_5() attributes {passthrough = ["noinline", "nnc-contraction"]} {
    llvm.return
  }
  llvm.func @nnc_kernel_9() attributes {passthrough = ["noinline"]} {
    llvm.return
  }
}
