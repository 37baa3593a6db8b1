//===- ContractionPlan.cpp - register tiles and cache blocks --------------===//
//
// Part of nnc. Chooses a contraction's kernel and tile sizes from the
// target's vector width, register count and cache sizes:
// - the register tile fills the vector registers with accumulators and
//   leaves room for one row of B (outer products) or one vector of each row
//   and column (dot products);
// - a K block keeps B's micro-panel (or the tile's rows and columns) in
//   half of L1, so it is reused by every register tile of a C block;
// - a C block (the unit of work of a thread) keeps its A rows and B panel in
//   half of L2, and there are enough blocks to keep the threads busy.
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"

#include "llvm/ADT/DenseSet.h"

#include <numeric>

using namespace nnc::cpu;

namespace {
/// Rows of C from which B is packed.
constexpr int64_t kPackRows = 512;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

/// The largest divisor of `size` in [lo, hi] that is a multiple of
/// `multiple`, or 0.
int64_t divisorIn(int64_t size, int64_t lo, int64_t hi, int64_t multiple) {
  for (int64_t d = hi; d >= lo && d > 0; --d)
    if (size % d == 0 && d % multiple == 0)
      return d;
  return 0;
}

/// How far past its budget a micro-kernel's K loops may run rather than
/// cover one row of a prime width. Inception-v3's filter gradients over
/// its 17x17 images (32 x 17 x 17 pixels) ran 17 steps between stores of
/// the accumulators with AVX-512 (a budget of 178): their 1x7 and 3x3 ones
/// took 0.47x and 0.51x the time with all 289 pixels of an image.
constexpr int64_t kWholeOver = 2;
/// Fewer K steps than this between the stores of the accumulators cost a
/// fair share of the micro-kernel's time.
constexpr int64_t kShortK = 64;

/// The micro-kernel's innermost K loop's trip count.
int64_t innermostTrip(const Contraction &c, const GemmPlan &plan) {
  return innerTrip(c, plan, c.kDims.size() - 1);
}

/// Splits the K dimensions into block loops and micro-kernel loops, the
/// latter covering at most about `kcMax` iterations; `multiple` constrains
/// the innermost loop's trip count (the dot kernel's vectors). The first
/// dimension that does not fit whole is chunked by its largest divisor that
/// fits, or taken whole when none does, the loops inside it are short
/// (kShortK) and it runs at most kWholeOver times the budget: a filter
/// gradient's K is the batch, rows and columns (32 x 28 x 28), and a
/// micro-kernel over one row (28) would load and store its accumulators
/// every few steps.
bool blockK(const Contraction &c, int64_t kcMax, int64_t multiple,
            GemmPlan &plan) {
  int64_t inner = 1;
  unsigned numInner = 0;
  for (unsigned i = c.kDims.size(); i-- > 0;) {
    int64_t size = c.sizes[c.kDims[i]];
    if (inner * size > kcMax)
      break;
    inner *= size;
    ++numInner;
  }
  plan.chunk = 0;
  if (numInner == 0) {
    // The innermost dimension alone is too long: split it in chunks, or
    // take it whole when nothing divides it well.
    int64_t size = c.sizes[c.kDims.back()];
    plan.chunk = divisorIn(size, kcMax / 2, kcMax, multiple);
    numInner = 1;
  } else if (numInner < c.kDims.size()) {
    int64_t size = c.sizes[c.kDims[c.kDims.size() - 1 - numInner]];
    int64_t chunk = divisorIn(size, 2, std::min(kcMax / inner, size - 1), 1);
    if (chunk > 1) {
      plan.chunk = chunk;
      ++numInner;
    } else if (inner < kShortK && inner * size <= kWholeOver * kcMax) {
      // No divisor fits (17 rows of 17 pixels), and what does fit is short:
      // the whole dimension, over the budget, beats a micro-kernel of one
      // row.
      ++numInner;
    }
  }
  plan.numBlockDims = c.kDims.size() - numInner;
  return innermostTrip(c, plan) % multiple == 0;
}

/// Rows per register tile for M rows, at most `most`: of the heights down
/// to half of it, the one that leaves the least padding in the last tile
/// (M = 32 with room for 14 rows: 4 tiles of 8, not 14 + 14 + 4), the
/// tallest among equals.
int64_t evenRows(int64_t m, int64_t most) {
  if (m <= most)
    return m;
  int64_t best = most;
  for (int64_t mr = most; mr >= ceilDiv(most, 2); --mr)
    if (roundUp(m, mr) < roundUp(m, best))
      best = mr;
  return best;
}

/// The fewest accumulators that keep both FMA pipes busy through the FMA
/// latency, with a margin.
constexpr int64_t kMinAccumulators = 16;

/// The most groups of rows in one line a tile addresses by their first
/// rows' addresses: beyond that, their frozen addresses take more
/// registers than the divisions they save.
constexpr int64_t kMaxLineGroups = 4;

/// The most padding of the last register tile, as a share of M, that a
/// taller tile is worth when B is packed.
constexpr int64_t kPaddingShare = 64;

/// Rows per register tile, at most `most`, for tiles `vectors` vectors
/// wide. The micro-kernel's K loop is unrolled (by 2 or 4, or whole), so its
/// loads are many and their addresses matter: the tallest height that
/// still fills the FMA pipes and divides the line of A's and C's rows (an
/// output row of a convolution), else the tallest whose rows fall in a few
/// groups that each lie in one line (a filter gradient's rows of 3 input
/// channels), lets a tile's rows be addressed one address per group plus
/// constants (lineGroup). Else evenRows.
///
/// When all of M is one line, B is packed and A's rows run along K (a
/// matrix product of 1024 or more, a 1x1 convolution over a large image),
/// no tile crosses a line: the tallest height whose padding is a small
/// share of M. Each k step loads B's panel once for the tile's rows, so
/// taller tiles stream it from L2 fewer times per FMA: 14 rows, not 8,
/// took the products of 1024 to 4096 from 5 to 10% less time on two
/// threads. (A filter gradient's rows are its input channels, side by
/// side in A: its tiles stay at most a vector tall, copied k-major.)
///
/// On 16 registers (AVX2) no tile fills the pipes, and the tallest, 6 rows
/// of 2 vectors (12 accumulators), still beats those that divide M better:
/// on two Zen 4 cores, 4 rows took the products of 256 to 4096 from 6 to
/// 12% more time, and 3 rows (M = 999) a third more. There, the same rule
/// holds for any M in one line, packed or not.
int64_t tileHeight(const Contraction &c, int64_t most, int64_t vectors) {
  int64_t fewest =
      std::max(ceilDiv(kMinAccumulators, vectors), ceilDiv(most, 2));
  if (c.m() <= most)
    return c.m();
  int64_t line = std::min(linearRows(c, c.a), linearRows(c, c.c));
  if (line == c.m() && (c.m() >= kPackRows || most < fewest) &&
      c.a.coef[c.kDims.back()] == 1)
    for (int64_t mr = most; mr >= std::min(fewest, most); --mr)
      if (roundUp(c.m(), mr) - c.m() <= c.m() / kPaddingShare)
        return mr;
  for (int64_t mr = most; mr >= fewest; --mr)
    if (lineGroup(c, mr) == mr)
      return mr;
  for (int64_t mr = most; mr >= fewest; --mr)
    if (lineGroup(c, mr))
      return mr;
  return evenRows(c.m(), most);
}

/// The fewest FMAs in a group of the micro-kernel's unrolled k steps: two
/// steps of an AVX-512 tile of 24 or 28 FMAs, four of an AVX2 tile of 12,
/// so that the loop's own instructions and its per-group prefetches stay a
/// few beside dozens of FMAs. Groups of two steps ran the AVX2 product of
/// 2048 1 to 2% slower than groups of four; on AVX-512 they ran the
/// products of 1024 to 4096 and Inception-v3's training step as fast, and
/// Inception-v3's contraction kernels had half the FMAs to compile
/// (docs/bench.md).
constexpr int64_t kGroupFMAs = 48;

/// How far ahead the micro-kernel prefetches B's panel: 1 KiB of a packed
/// one, 8 k steps of a 32-wide AVX-512 panel (16 of an AVX2 one). On the
/// product of 2048 on one thread, 4 and 16 steps of AVX-512 gained less
/// than 8.
constexpr int64_t kPrefetchBytes = 1024;

/// Vectors across a register tile of packed B on 32 registers: 6 rows of
/// 4 vectors (24 accumulators) load a broadcast per 4 FMAs, 14 rows of 2
/// one per 2, and ran at 176 against 161 GFLOP/s on one core of an Ice
/// Lake Xeon (bench/tile_shapes.c); the products of 1024 to 4096 took
/// 0.86x to 0.95x the time on two threads.
constexpr int64_t kWideVectors = 4;

/// Units of parallel work wanted: a few per thread.
constexpr int64_t kWantedBlocks = 16;
/// The most memory the K slices' copies of C may take.
constexpr int64_t kMaxSliceBytes = 16 << 20;
/// How many times C's longer side K must be to be split.
constexpr int64_t kLongK = 4;
/// The fewest K iterations a slice sums.
constexpr int64_t kMinSliceK = 256;

/// Whether K is long beside C's sides: a filter gradient, whose K is the
/// batch times the output positions, not a product whose blocks merely
/// are few.
bool longK(const Contraction &c) {
  return c.k() >= kLongK * std::max(c.m(), c.n());
}

int64_t numCBlocks(const Contraction &c, const GemmPlan &plan) {
  return ceilDiv(c.m(), plan.mc) * ceilDiv(c.n(), plan.nc);
}

/// Divides K among slices when C has too few blocks for the threads: the
/// outermost K block loop's trip count, split evenly, with the copies of C
/// small beside what the slices read.
///
/// A C that fits in L2 is one block: each slice then streams its share of
/// A and B once, where each of C's blocks would stream it again. In
/// ResNet-50's training step on Zen 4 (AVX-512), the filter gradients of
/// its 3x3 layers over 64 and 128 channels (C 144 and 576 KiB, before in
/// 6 and 12 blocks of 96 rows) took 0.85x to 0.88x the time.
void splitK(const Contraction &c, const CPUTuning &target, GemmPlan &plan) {
  if (plan.kind != GemmPlan::Kind::OuterProduct)
    return;
  auto loops = blockLoops(c, plan);
  int64_t trip = loops.empty() ? 0 : loops.front().second;
  int64_t cBytes = 4 * c.m() * c.n();
  bool whole = cBytes <= target.l2Bytes;
  int64_t blocks = whole ? 1 : numCBlocks(c, plan);
  if (trip < 2 || blocks >= kWantedBlocks || !longK(c))
    return;
  int64_t most =
      std::min(ceilDiv(kWantedBlocks, blocks), kMaxSliceBytes / cBytes);
  // Each slice still sums a long stretch of K into its copy of C.
  most = std::min(most, c.k() / kMinSliceK);
  plan.kSplit = std::max<int64_t>(1, divisorIn(trip, 2, most, 1));
  if (whole && plan.kSplit > 1) {
    plan.mc = roundUp(c.m(), plan.mr);
    plan.nc = roundUp(c.n(), plan.nr);
  }
}

/// Lines of a set of L1 (8 ways on Zen, 12 on Sapphire Rapids) and the
/// bytes after which addresses map to the same set again.
constexpr int64_t kL1Ways = 8;
constexpr int64_t kL1SetPeriod = 4096;

/// How a register tile's rows of A are copied when, in place, too many of
/// them would share a set of L1 (rows-outer tiles, whose A rows must stay
/// in L1; A unit-stride along K, in whole vectors): rows a multiple of
/// 4 KiB apart (K = 1024, 2048 or 4096 in a product, 1024 or 2048 channels
/// in a 1x1 convolution) all fall in one set.
/// - A tile with more rows than the set has ways (AVX-512's 9 and 14 rows)
///   copies its rows apart (PackA::Rows: on Emerald Rapids, a 1x1
///   convolution with K = 1024 ran at 205 GFLOP/s, not 164).
/// - With AVX2, a tile with more rows in a set than half its ways (its 6
///   rows, all in one) copies them k-major (PackA::Panel): on Zen 3, the
///   products of 1024, 2048 and 4096 took 0.92 to 0.93x the time of A in
///   place on one thread, 0.95 to 0.98x on two; the rows copy 1.07x. With
///   three rows a set (K = 512 or 1536), neither copy gains; where none
///   share a set, the k-major copy took 1.04 to 1.1x the time. AVX-512's
///   6-row tiles (the products', 4 vectors wide) read A in place: the
///   copy is unmeasured there, where L1 may have 12 ways. The k-major copy
///   covers the whole C block where the K blocks allow (blockRowsOfA).
std::optional<GemmPlan::PackA> aliasedRowsCopy(const Contraction &c,
                                               const GemmPlan &plan) {
  if (plan.kind != GemmPlan::Kind::OuterProduct || !plan.packB ||
      c.a.coef[c.kDims.back()] != 1 || innermostTrip(c, plan) % plan.lanes != 0)
    return std::nullopt;
  int64_t rowBytes = 4 * c.a.coef[c.mDims.back()];
  llvm::SmallDenseSet<int64_t> sets;
  for (int64_t r = 0; r < plan.mr; ++r)
    sets.insert(r * rowBytes % kL1SetPeriod / 64);
  int64_t perSet = ceilDiv(plan.mr, sets.size());
  if (perSet > kL1Ways)
    return GemmPlan::PackA::Rows;
  if (perSet > kL1Ways / 2 && plan.lanes == 8 && plan.mr <= plan.lanes)
    return GemmPlan::PackA::Panel;
  return std::nullopt;
}

/// The most K steps of B's micro-panel (kc x nr) that fit half of L1.
int64_t microPanelK(const CPUTuning &target, const GemmPlan &plan) {
  return std::max<int64_t>(target.l1Bytes / 2 / (4 * plan.nr), 16);
}

/// Tiles whose rows AVX2 copies k-major because they crowd one set of L1
/// (aliasedRowsCopy) share one copy of their C block's rows per K block
/// (GemmPlan::blockA), as BLAS libraries pack A: the copy streams each row
/// once for all of the block's panels, not once per tile. B's micro-panel
/// (kc x nr) stays in half of L1 while the block's tiles pass it, the copy
/// of A (mc x kc) in half of L2 while the panels pass it, and each copy
/// serves L2's worth of B (nc x kc). On Zen 3, against each tile's own
/// copy (kc 1024, nc 128): the product of 2048 took 0.91x the time on two
/// threads and 0.90x on one, 4096 0.90x on two, 1024 0.93x. Where
/// no rows alias, the same blocking with A copied took 1.02x (2000) and
/// 1.09x (1000) the time of A read in place.
void blockRowsOfA(const Contraction &c, const CPUTuning &target,
                  GemmPlan &plan) {
  GemmPlan blocked = plan;
  blockK(c, microPanelK(target, plan), 1, blocked);
  if (aliasedRowsCopy(c, blocked) != GemmPlan::PackA::Panel)
    return;
  int64_t kc = microK(c, blocked);
  blocked.packA = GemmPlan::PackA::Panel;
  blocked.blockA = true;
  blocked.mc =
      plan.mr * std::max<int64_t>(1, target.l2Bytes / 2 / (4 * kc * plan.mr));
  blocked.nc =
      plan.nr * std::max<int64_t>(1, target.l2Bytes / (4 * kc * plan.nr));
  plan = blocked;
}

/// Whether a filter gradient's B (the output gradient, K long beside C)
/// steps a multiple of L1's set period from one k to the next (1024
/// channels or more), so that a micro-panel's rows in place would all fall
/// in the same set of L1. Packed, they are contiguous: in ResNet-50's
/// training step on Zen 4, its filter gradients of 256 x 1024 took 0.4x
/// the time with AVX2 and 0.75x with AVX-512, the copy of B included.
bool bRowsShareASet(const Contraction &c) {
  int64_t step = 4 * c.b.coef[c.kDims.back()];
  return longK(c) && step > 0 && step % kL1SetPeriod == 0;
}

/// Whether a register tile's rows of A are better read from a k-major
/// copy (GemmPlan::PackA::Panel): rows outer, their elements consecutive
/// in A (in one line, at most a vector of them), and each k step a cache
/// line or more from the last.
bool panelPays(const Contraction &c, const GemmPlan &plan) {
  return plan.kind == GemmPlan::Kind::OuterProduct && plan.packB &&
         plan.mr <= plan.lanes && c.a.coef[c.mDims.back()] == 1 &&
         lineGroup(c, plan.mr) == plan.mr &&
         c.a.coef[c.kDims.back()] >= kLineFloats;
}

/// Shrinks the C blocks until there are a few per thread. Eight or more K
/// slices that each take C whole (splitK) are work enough: dividing C
/// again would make each of its blocks stream B again (a 64 x 256 filter
/// gradient in 14 slices, on Zen 4 with AVX2: 0.8x the time of two blocks).
void spreadBlocks(const Contraction &c, GemmPlan &plan) {
  if (plan.kSplit >= kWantedBlocks / 2 && numCBlocks(c, plan) == 1)
    return;
  const int64_t wanted = ceilDiv(kWantedBlocks, plan.kSplit);
  auto blocks = [&] { return numCBlocks(c, plan); };
  while (blocks() < wanted && (plan.mc > plan.mr || plan.nc > plan.nr)) {
    if (plan.mc > plan.mr &&
        (plan.mc / plan.mr >= plan.nc / plan.nr || plan.nc == plan.nr))
      plan.mc = roundUp(plan.mc / 2, plan.mr);
    else
      plan.nc = roundUp(plan.nc / 2, plan.nr);
  }
}
} // namespace

int64_t nnc::cpu::linearRows(const Contraction &c, const LinearAccess &access) {
  int64_t rows = c.sizes[c.mDims.back()];
  for (size_t i = c.mDims.size() - 1; i-- > 0;) {
    unsigned d = c.mDims[i], inner = c.mDims[i + 1];
    if (access.coef[d] != access.coef[inner] * c.sizes[inner])
      break;
    rows *= c.sizes[d];
  }
  return rows;
}

int64_t nnc::cpu::lineGroup(const Contraction &c, int64_t mr,
                            llvm::ArrayRef<LinearAccess> more) {
  // Each access's line is a product of the innermost M dimensions' sizes,
  // so the shortest divides the others.
  int64_t line = std::min(linearRows(c, c.a), linearRows(c, c.c));
  for (const LinearAccess &access : more)
    line = std::min(line, linearRows(c, access));
  // Groups of `group` rows from multiples of it each lie in one line.
  int64_t group = std::gcd(line, mr);
  return group > 1 && mr / group <= kMaxLineGroups ? group : 0;
}

int64_t nnc::cpu::microK(const Contraction &c, const GemmPlan &plan) {
  int64_t k = 1;
  for (unsigned level = plan.numBlockDims; level < c.kDims.size(); ++level)
    k *= innerTrip(c, plan, level);
  return k;
}

int64_t nnc::cpu::numKBlocks(const Contraction &c, const GemmPlan &plan) {
  int64_t n = 1;
  for (auto [d, trip] : blockLoops(c, plan))
    n *= trip;
  return n / plan.kSplit;
}

int64_t nnc::cpu::kernelTrip(const Contraction &c, const GemmPlan &plan) {
  return plan.packA == GemmPlan::PackA::Panel ? microK(c, plan)
                                              : innermostTrip(c, plan);
}

int64_t nnc::cpu::innerTrip(const Contraction &c, const GemmPlan &plan,
                            unsigned level) {
  bool chunked = plan.chunk && level == plan.numBlockDims;
  return chunked ? plan.chunk : c.sizes[c.kDims[level]];
}

llvm::SmallVector<std::pair<unsigned, int64_t>>
nnc::cpu::blockLoops(const Contraction &c, const GemmPlan &plan) {
  llvm::SmallVector<std::pair<unsigned, int64_t>> loops;
  for (unsigned i = 0; i < plan.numBlockDims; ++i)
    loops.push_back({c.kDims[i], c.sizes[c.kDims[i]]});
  if (plan.chunk) {
    unsigned d = c.kDims[plan.numBlockDims];
    loops.push_back({d, c.sizes[d] / plan.chunk});
  }
  return loops;
}

std::optional<GemmPlan> nnc::cpu::planContraction(const Contraction &c,
                                                  const CPUTuning &target) {
  GemmPlan plan;
  plan.lanes = std::max<int64_t>(target.vectorBits / 32, 4);
  const int64_t regs = target.vectorRegisters, lanes = plan.lanes;
  const unsigned innerK = c.kDims.back();
  bool dot = c.a.coef[innerK] == 1 && c.b.coef[innerK] == 1;
  // An nr-wide panel of C (and of B) is contiguous when it stays within a
  // row of C's innermost dimension.
  auto panelsInRow = [&](int64_t v) {
    return c.nDims.size() == 1 || c.sizes[c.nDim] % (v * lanes) == 0;
  };
  const int64_t widest = ceilDiv(c.n(), lanes);
  int64_t vectors = std::min<int64_t>(2, widest);
  // The most rows of v-vector tiles: their accumulators, v vectors of B
  // and a broadcast of A fill the registers.
  auto mostRows = [&](int64_t v) { return (regs - v - 1) / v; };
  // Packing B costs a pass over it; with this many rows of C reusing it,
  // that is a small fraction of the work. A packed B's tiles are wide on
  // 32 registers (kWideVectors) when A's rows run along K (not a filter
  // gradient's channels: AlexNet's conv2, 1.4x the time) and the tile is
  // as tall as the registers allow (not 4 rows of a 13-pixel line, which
  // stream B's panel from L2 three times as often as 13 rows).
  if (c.m() >= kPackRows && regs >= 32 && c.a.coef[innerK] == 1)
    for (int64_t v = std::min(kWideVectors, widest); v > vectors; --v)
      if (panelsInRow(v) && tileHeight(c, mostRows(v), v) == mostRows(v)) {
        vectors = v;
        break;
      }
  bool unitN = c.b.coef[c.nDim] == 1 && panelsInRow(vectors);
  plan.packB =
      (c.m() >= kPackRows || bRowsShareASet(c)) && panelsInRow(vectors);
  if (unitN || plan.packB) {
    plan.kind = GemmPlan::Kind::OuterProduct;
    plan.nr = vectors * lanes;
    plan.mr = tileHeight(c, mostRows(vectors), vectors);
    if (plan.packB) {
      // Rows outer: A's micro-panel (mr x kc) is reused by every panel of
      // the block (the longer K, the fewer passes over C) and B's block
      // (kc x nc, contiguous) by every tile; each fills L1 and L2, or half
      // of them under a wide tile, whose B panel streams twice the bytes
      // per FMA (the product of 2048 on one thread: 0.93x the time of
      // whole caches). A k-major copy of A's panel shares L1 with the
      // micro-panel of B that passes between two reads of each of its
      // lines (AlexNet's conv2 filter gradient: K blocks of 81 pixels, not
      // 729). A 14-row tile's K blocks, so shortened, ran slower: 0.58 s
      // for the product of 4096, against 0.49 s.
      if (panelPays(c, plan))
        plan.packA = GemmPlan::PackA::Panel;
      int64_t panelBytes = 4 * plan.mr;
      if (plan.packA == GemmPlan::PackA::Panel)
        panelBytes += 4 * plan.nr;
      int64_t share = vectors > 2 ? 2 : 1;
      int64_t kcMax =
          std::max<int64_t>(target.l1Bytes / share / panelBytes, 16);
      blockK(c, kcMax, 1, plan);
      int64_t kc = microK(c, plan);
      plan.nc = plan.nr * std::max<int64_t>(1, target.l2Bytes / share /
                                                   (4 * kc * plan.nr));
      plan.mc = plan.mr * 16;
      blockRowsOfA(c, target, plan);
    } else {
      // Panels outer: B's micro-panel (kc x nr) in half of L1, the block's
      // A rows in a quarter of L2.
      int64_t kcMax = microPanelK(target, plan);
      blockK(c, kcMax, 1, plan);
      plan.mc = plan.mr * std::max<int64_t>(1, target.l2Bytes / 4 /
                                                   (4 * kcMax * plan.mr));
      plan.nc = plan.nr * 8;
    }
  } else if (dot) {
    plan.kind = GemmPlan::Kind::Dot;
    // mr x nr accumulators, mr + nr vectors of A and B.
    plan.mr = std::min<int64_t>(regs >= 32 ? 4 : 3, c.m());
    plan.nr = std::min<int64_t>(regs >= 32 ? 5 : 3, c.n());
    // The dot products run along K in whole vectors: when the widest do
    // not divide it (K = 1000 with 16 lanes), narrower ones that do, down
    // to 4 lanes, beat giving the contraction up to the generic loops.
    auto fits = [&] {
      int64_t kcMax = std::max<int64_t>(
          target.l1Bytes / 2 / (4 * (plan.mr + plan.nr)), plan.lanes);
      return blockK(c, kcMax, plan.lanes, plan);
    };
    while (!fits()) {
      if (plan.lanes <= 4)
        return std::nullopt;
      plan.lanes /= 2;
    }
    plan.mc = plan.mr * 8;
    plan.nc = plan.nr * 16;
  } else {
    return std::nullopt;
  }
  plan.mc = std::min(plan.mc, roundUp(c.m(), plan.mr));
  plan.nc = std::min(plan.nc, roundUp(c.n(), plan.nr));
  splitK(c, target, plan);
  spreadBlocks(c, plan);
  if (auto copy = aliasedRowsCopy(c, plan))
    plan.packA = *copy;
  if (plan.kind == GemmPlan::Kind::OuterProduct)
    plan.prefetchB = kPrefetchBytes / (4 * plan.nr);
  // A block's copy of A is shared by its panels: its tiles run panels
  // outer, and the next K block of a panel comes after all of the others.
  if (plan.packB && numKBlocks(c, plan) > 1 && !plan.blockA)
    plan.nextBLines = microK(c, plan) * plan.nr / kLineFloats /
                      std::max<int64_t>(1, plan.mc / plan.mr);
  if (plan.packB) {
    // Column blocks of equal widths; when they cover N exactly, the blocks
    // can go columns outer with every thread's share of the same size.
    plan.nc = roundUp(ceilDiv(c.n(), ceilDiv(c.n(), plan.nc)), plan.nr);
    plan.columnsOuter = c.n() % plan.nc == 0;
  }
  // Row blocks of equal heights: the copy of A is as long in each.
  if (plan.blockA)
    plan.mc = roundUp(ceilDiv(c.m(), ceilDiv(c.m(), plan.mc)), plan.mr);

  int64_t trip = kernelTrip(c, plan);
  if (plan.kind == GemmPlan::Kind::Dot)
    trip /= plan.lanes;
  // Groups of steps, the rest after the loop: LLVM's unrollers leave the
  // contraction kernels alone (compiler/lib/Driver/Optimize.cpp), and an odd
  // trip count unrolled by one ran the product of 999 in a third more time.
  int64_t stepFMAs = plan.kind == GemmPlan::Kind::Dot
                         ? plan.mr * plan.nr
                         : plan.mr * (plan.nr / plan.lanes);
  int64_t unroll = 2 * stepFMAs >= kGroupFMAs ? 2 : 4;
  plan.unroll = trip <= 2 * unroll ? trip : unroll;
  return plan;
}
