//===- Contraction.h - contractions on buffers for the CPU ------*- C++ -*-===//
//
// Part of nnc. The analysis and code generation behind nnc-cpu-contractions:
// a linalg op that computes C[m, n] += sum_k A[m, k] * B[k, n] on buffers,
// where m, n and k each stand for one or more loop dimensions (a matrix
// product with any transposes, an NHWC convolution, a filter gradient), is
// described by the sizes of its loops and, for every operand, its element
// address as a linear function of the loop indices. Code generation then
// needs nothing op-specific: register tiles, blocks for the caches and the
// threads, and an elementwise consumer fused into the last stores.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CODEGEN_CPU_CONTRACTION_H
#define NNC_CODEGEN_CPU_CONTRACTION_H

#include "nnc/Codegen/CPU/Tuning.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace nnc::cpu {

/// f32 elements in a cache line.
constexpr int64_t kLineFloats = 16;

/// The element at loop indices i lives at `offset + sum_d coef[d] * i[d]`
/// in the flat view of `buffer` (its base, unit stride).
struct LinearAccess {
  mlir::Value buffer;
  int64_t offset = 0;
  llvm::SmallVector<int64_t> coef;
  /// Elements of the flat view from the base: the largest address + 1.
  int64_t span = 0;
};

/// The access of `buffer` through `map` (results in terms of `numDims`
/// loop dimensions of sizes `sizes`), or nullopt when the map is not linear
/// or the layout not static.
std::optional<LinearAccess> linearAccess(mlir::Value buffer,
                                         mlir::AffineMap map,
                                         llvm::ArrayRef<int64_t> sizes);

/// C[m, n] (+)= sum_k A[m, k] * B[k, n].
struct Contraction {
  mutable mlir::linalg::LinalgOp op;
  llvm::SmallVector<int64_t> sizes; ///< every loop's trip count
  /// M and N dimensions in C's order (outer to inner; N holds C's
  /// innermost dimension, `nDim`), then K dimensions outer to inner (the
  /// innermost has A's smallest stride). Rows and columns of C are the
  /// flattened M and N indices.
  llvm::SmallVector<unsigned> mDims, nDims;
  unsigned nDim = 0;
  llvm::SmallVector<unsigned> kDims;
  LinearAccess a, b, c;
  /// C holds zeros before the op (a fill that can be dropped), so the first
  /// partial sums are stored, not added.
  bool zeroInit = false;

  int64_t m() const;
  int64_t n() const;
  int64_t k() const;
};

/// A dense row-major copy of `c`'s C (row r, column j at r * N + j), with
/// no buffer yet.
LinearAccess denseAccess(const Contraction &c);

/// The allocation (or argument) a view is taken of.
mlir::Value bufferRoot(mlir::Value view);

/// Whether any operand of `op` is a view of `root`.
bool touchesBuffer(mlir::Operation *op, mlir::Value root);

/// Recognises `op` (static, f32, on buffers, a multiply-accumulate body).
std::optional<Contraction> matchContraction(mlir::linalg::LinalgOp op);

/// The linalg.fill of zeros into C that the contraction can absorb (nothing
/// between them touches C), or null.
mlir::linalg::FillOp findZeroFill(const Contraction &c);

/// How a contraction is tiled.
struct GemmPlan {
  /// OuterProduct: B is unit-stride along N; each k step adds mr broadcasts
  /// of A times an nr-wide row of B. Dot: A and B are unit-stride along the
  /// innermost K dimension; each tile is mr x nr dot products along it.
  enum class Kind { OuterProduct, Dot } kind = Kind::OuterProduct;
  int64_t lanes = 8; ///< f32 elements per vector
  int64_t mr = 6;    ///< rows of C per register tile
  int64_t nr = 16;   ///< columns of C per register tile
  int64_t mc = 72;   ///< rows of C per block (a multiple of mr)
  int64_t nc = 128;  ///< columns of C per block (a multiple of nr)
  /// K blocking: kDims[0, numBlockDims) are loops around the register tiles
  /// (one pass over the block's C tiles each); the remaining K dimensions
  /// run inside the micro-kernel. When `chunk` > 0, the first inner
  /// dimension is split: chunks of `chunk` iterations, the chunk index a
  /// block loop too.
  unsigned numBlockDims = 0;
  int64_t chunk = 0;
  /// The innermost K loop's unrolling: groups of 2 steps (4 where a step
  /// has fewer than 24 FMAs), the steps past the last whole group after the
  /// loop; the whole loop when it has at most two groups' steps.
  int64_t unroll = 1;
  /// B is first copied into nr-wide panels, [N/nr][K][nr] with K in the
  /// kernel's order and the last panel padded with zeros, so the kernel
  /// reads it contiguously whatever its layout (worth it when many rows of
  /// C reuse it, or when its rows in place would share a set of L1). The
  /// tiles of a block then run rows outer, panels inner: A's rows stay in
  /// L1 while B's block stays in L2 (but see blockA).
  bool packB = false;
  /// How each register tile's rows of A are first copied, for the K block,
  /// into a buffer of the thread's (B packed):
  /// - Rows: row by row, rows one cache line more than K apart (A
  ///   unit-stride along the innermost K dimension). For rows a multiple of
  ///   4 KiB apart (K = 1024 or 2048 in a 1x1 convolution), which all fall
  ///   in the same set of L1 and, more of them than its ways (AVX-512's
  ///   tiles), evict each other between k steps.
  /// - Panel: k by k, each k's mr elements side by side (at most a vector
  ///   of them): from rows consecutive in A, one vector per k; from rows
  ///   unit-stride along the innermost K dimension, square blocks of
  ///   lanes k's transposed in registers. For a filter gradient, whose
  ///   rows are input channels and whose k steps are pixels: in place,
  ///   each k step reads a few elements from one or two cache lines of its
  ///   own, and the K block's lines do not stay in L1 while the tile's
  ///   panels of B pass. For AVX2's 6 rows 4 KiB apart, which all fall in
  ///   one set of L1 (ContractionPlan.cpp, aliasedRowsCopy).
  enum class PackA { None, Rows, Panel } packA = PackA::None;
  /// The k-major copy (PackA::Panel) covers the whole C block's rows, tile
  /// after tile, made once per K block before any tile runs; the tiles then
  /// run panels outer, rows inner: B's micro-panel stays in L1 while the
  /// block's copy of A stays in L2 (ContractionPlan.cpp, blockRowsOfA).
  bool blockA = false;
  /// Outer products: each k step of the micro-kernel prefetches the lines
  /// of B's panel this many k steps ahead. Packed, the panel streams from
  /// L2 through L1 once per register tile, and the hardware's prefetchers
  /// leave the first load of each k step waiting on L2; in place, each k
  /// step's row of the panel is a row of B further (a dense layer's
  /// weights), a stride those prefetchers do not follow.
  int64_t prefetchB = 0;
  /// Outer products on a packed B with several K blocks: each register
  /// tile's micro-kernel also prefetches, into L2, its share of the lines
  /// of its panel's next K block (tile t of the C block the t-th share of
  /// `nextBLines` lines; after the last block, the first). A K block of
  /// B's panels (kc x nc, about L2's size) is reused by the block's tiles
  /// from L2, but its first tile would stream it from L3, where a k step's
  /// row arrives later than the FMAs need it.
  int64_t nextBLines = 0;
  /// The C blocks go columns outer: a thread's consecutive blocks share B's
  /// column block, which stays in the caches while the rows of A stream
  /// past it (B packed, N a multiple of nc so the shares stay equal).
  bool columnsOuter = false;
  /// K slices: the outermost K block loop is divided among `kSplit`
  /// slices that run in parallel beside the C blocks, each summing into
  /// its own dense copy of C; a last pass adds the copies into C and
  /// applies the epilogue. For a C too small to give every thread blocks
  /// that are not mere slivers (filter gradients: K is the batch times the
  /// output positions), where slivers would each stream A or B whole. A C
  /// that fits in L2 is one block that every slice takes whole.
  int64_t kSplit = 1;
};

/// The trip count of the micro-kernel's K loop at `level` (from
/// plan.numBlockDims): the chunk for the first one when K is chunked.
int64_t innerTrip(const Contraction &c, const GemmPlan &plan, unsigned level);

/// K blocks each C block runs: a slice's share when K is split (splitK
/// divides the outermost block loop evenly).
int64_t numKBlocks(const Contraction &c, const GemmPlan &plan);

/// K iterations per micro-kernel call (all its K loops).
int64_t microK(const Contraction &c, const GemmPlan &plan);

/// The trip count of the micro-kernel's innermost K loop: the K loops
/// inside it are one when A is copied k-major, as that copy and B's
/// packed panels are dense in them.
int64_t kernelTrip(const Contraction &c, const GemmPlan &plan);

/// The K block loops around the register tiles, outer to inner: each one's
/// K dimension and trip count, the chunk loop last when K is chunked (the
/// whole of K, before any split among slices).
llvm::SmallVector<std::pair<unsigned, int64_t>>
blockLoops(const Contraction &c, const GemmPlan &plan);

/// The length of the lines of C's rows in `access`: the rows from a
/// multiple of it on lie at the first one's address plus multiples of the
/// innermost M stride. That is the innermost M dimension, with the next
/// ones out as long as their strides chain: a filter gradient's rows
/// (kernel column, input channel) read consecutive pixels of an NHWC image.
int64_t linearRows(const Contraction &c, const LinearAccess &access);

/// How many consecutive rows of an `mr`-row tile starting at a multiple
/// of mr lie in one line of A, of C and of `more` (linearRows): the whole
/// tile when mr divides the line; else, in a tile of at most a few groups,
/// their greatest common divisor (a filter gradient's rows of 3 input
/// channels, 4 per tile); else 0. Each such group is addressed from its
/// first row (Emitter::rowAddress).
int64_t lineGroup(const Contraction &c, int64_t mr,
                  llvm::ArrayRef<LinearAccess> more = {});

/// The plan for `c` on `target`, or nullopt when no kernel fits.
std::optional<GemmPlan> planContraction(const Contraction &c,
                                        const CPUTuning &target);

/// An elementwise linalg.generic that reads C, fused into the contraction's
/// last stores: D = f(C, other inputs), D possibly another buffer.
struct Epilogue {
  mutable mlir::linalg::GenericOp op;
  unsigned cInput = 0;                    ///< the input that reads C
  llvm::SmallVector<LinearAccess> inputs; ///< in terms of the loop dims
  LinearAccess dest;                      ///< the output D, likewise
};

/// The consumer of C that can be fused into `c`, if any.
std::optional<Epilogue> matchEpilogue(const Contraction &c);

/// Whether C's consumer is worth fusing into `c` planned as `plan`: when
/// the round trip of C that fusing saves is a fair share of the
/// contraction's time, which it is when the reduction is short, or C too
/// large for the caches and the reduction not long. Otherwise the consumer
/// runs as a kernel of its own, and the contraction's kernel can be shared
/// with every contraction of the same plan (ContractionEpilogue.cpp).
bool worthFusingEpilogue(const Contraction &c, const GemmPlan &plan);

/// Builds f(values) from the epilogue's body: `operands[i]` stands for the
/// i-th block argument (inputs, then the output), scalars or vectors of one
/// shape (constants from outside the body are broadcast).
mlir::Value emitEpilogueBody(mlir::OpBuilder &b, mlir::Location loc,
                             const Epilogue &epilogue,
                             llvm::ArrayRef<mlir::Value> operands);

/// Replaces the contraction (and the fused epilogue's op) by the tiled
/// loops of `plan`.
void emitContraction(mlir::OpBuilder &b, const Contraction &c,
                     const GemmPlan &plan, const Epilogue *epilogue);

} // namespace nnc::cpu

#endif // NNC_CODEGEN_CPU_CONTRACTION_H
