//===- OptimizerToLinalg.cpp - nn training-step ops to linalg -------------===//
//
// Part of nnc. learning_rate (constant, or TensorFlow's exponential decay),
// increment (the i64 global step), sgd_update (plain, momentum, Nesterov)
// and adam_update. An update is one
// elementwise linalg.generic whose outputs are the parameter's (and its
// optimizer state's) own tensors, so after bufferization it updates the
// parameter buffer in place.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "nnc/Conversion/NNToLinalg/NNToLinalg.h"

#include "nn/IR/NNDialect.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace nnc::conversion;
using namespace nnc::linalg_utils;

namespace {

/// rate * decay^(step / decay_steps), the exponent floored when staircase;
/// rate without decay. A rank-0 tensor; the i64 step is compared exactly
/// with boundaries and warmup_steps and converted to float for the rest.
struct LearningRateLowering : OpRewritePattern<nn::LearningRateOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::LearningRateOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    Type elt = type.getElementType();
    rewriter.replaceOp(
        op, pointwise(rewriter, op.getLoc(), type, op.getStep(),
                      [&](OpBuilder &b, Location l, ValueRange a) {
                        Value rate = scheduled(b, l, op, elt, a[0]);
                        return warmup(b, l, op, elt, a[0], rate);
                      }));
    return success();
  }

  static Value intConst(OpBuilder &b, Location l, int64_t v) {
    return arith::ConstantOp::create(b, l, b.getI64IntegerAttr(v));
  }

  /// The rate the schedule gives at `step`.
  static Value scheduled(OpBuilder &b, Location l, nn::LearningRateOp op,
                         Type t, Value step) {
    if (auto values = op.getValuesAttr()) {
      // values[i] once step > boundaries[i - 1].
      Value rate = floatConst(b, l, t, values[0]);
      for (auto [i, boundary] : llvm::enumerate(op.getBoundariesAttr()
                                                     .asArrayRef())) {
        Value past = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt,
                                           step, intConst(b, l, boundary));
        rate = arith::SelectOp::create(b, l, past,
                                       floatConst(b, l, t, values[i + 1]), rate);
      }
      return rate;
    }
    Value rate = floatConst(b, l, t, op.getRate().convertToDouble());
    if (!op.getDecay())
      return rate;
    Value stepF = arith::SIToFPOp::create(b, l, t, step);
    Value exponent = arith::DivFOp::create(
        b, l, stepF, floatConst(b, l, t, double(*op.getDecaySteps())));
    if (op.getStaircase())
      exponent = math::FloorOp::create(b, l, exponent);
    Value decay = floatConst(b, l, t, op.getDecay()->convertToDouble());
    return mul(b, l, rate, math::PowFOp::create(b, l, decay, exponent));
  }

  /// rate * step / N while step < N = warmup_steps.
  static Value warmup(OpBuilder &b, Location l, nn::LearningRateOp op, Type t,
                      Value step, Value rate) {
    int64_t steps = op.getWarmupStepsAttr().getInt();
    if (steps <= 0)
      return rate;
    Value stepF = arith::SIToFPOp::create(b, l, t, step);
    Value n = floatConst(b, l, t, double(steps));
    Value ramp = mul(b, l, rate, arith::DivFOp::create(b, l, stepF, n));
    Value warming = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt,
                                          step, intConst(b, l, steps));
    return arith::SelectOp::create(b, l, warming, ramp, rate);
  }
};

/// step + 1 on the i64 counter.
struct IncrementLowering : OpRewritePattern<nn::IncrementOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::IncrementOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    rewriter.replaceOp(
        op, pointwise(rewriter, op.getLoc(), type, op.getInput(),
                      [&](OpBuilder &b, Location l, ValueRange a) -> Value {
                        return arith::AddIOp::create(
                            b, l, a[0],
                            LearningRateLowering::intConst(b, l, 1));
                      }));
    return success();
  }
};

/// An update written into the parameter's (and its state's) own tensors:
/// ins (param, grad, state..., scalars...), outs (param, state...).
Value updateGeneric(OpBuilder &b, Location loc, ValueRange tensors,
                    ValueRange scalars, ValueRange outs,
                    function_ref<void(OpBuilder &, Location, ValueRange)> body,
                    SmallVectorImpl<Value> &results) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(tensors[0].getType());
  unsigned rank = type.getRank();
  SmallVector<Value> ins(tensors.begin(), tensors.end());
  ins.append(scalars.begin(), scalars.end());
  SmallVector<AffineMap> maps(tensors.size(), identity(ctx, rank));
  maps.append(scalars.size(), AffineMap::get(rank, 0, {}, ctx));
  maps.append(outs.size(), identity(ctx, rank));
  SmallVector<Type> types(outs.size(), type);
  auto g = linalg::GenericOp::create(b, loc, types, ins, outs, maps,
                                     parallel(rank), body);
  results.assign(g.getResults().begin(), g.getResults().end());
  return g.getResult(0);
}

struct SGDUpdateLowering : OpRewritePattern<nn::SGDUpdateOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::SGDUpdateOp op,
                                PatternRewriter &rewriter) const override {
    Type elt = cast<ShapedType>(op.getParam().getType()).getElementType();
    double wd = op.getWeightDecay().convertToDouble();
    double momentum = op.getMomentum().convertToDouble();
    bool nesterov = op.getNesterov();
    Value v = op.getVelocity();
    SmallVector<Value> tensors = {op.getParam(), op.getGrad()};
    SmallVector<Value> outs = {op.getParam()};
    if (v) {
      tensors.push_back(v);
      outs.push_back(v);
    }
    SmallVector<Value> results;
    updateGeneric(
        rewriter, op.getLoc(), tensors, op.getLearningRate(), outs,
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value w = a[0], g = a[1], lr = v ? a[3] : a[2];
          if (wd != 0.0)
            g = add(b, l, g, mul(b, l, floatConst(b, l, elt, wd), w));
          if (!v) {
            linalg::YieldOp::create(b, l,
                                    ValueRange{sub(b, l, w, mul(b, l, lr, g))});
            return;
          }
          Value mom = floatConst(b, l, elt, momentum);
          Value vNew = add(b, l, mul(b, l, mom, a[2]), g);
          Value step = nesterov ? add(b, l, g, mul(b, l, mom, vNew)) : vNew;
          linalg::YieldOp::create(
              b, l, ValueRange{sub(b, l, w, mul(b, l, lr, step)), vNew});
        },
        results);
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct AdamUpdateLowering : OpRewritePattern<nn::AdamUpdateOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::AdamUpdateOp op,
                                PatternRewriter &rewriter) const override {
    Type elt = cast<ShapedType>(op.getParam().getType()).getElementType();
    double wd = op.getWeightDecay().convertToDouble();
    double b1 = op.getBeta1().convertToDouble();
    double b2 = op.getBeta2().convertToDouble();
    double eps = op.getEpsilon().convertToDouble();
    SmallVector<Value> results;
    updateGeneric(
        rewriter, op.getLoc(),
        ValueRange{op.getParam(), op.getGrad(), op.getM(), op.getV()},
        ValueRange{op.getLearningRate(), op.getStep()},
        ValueRange{op.getParam(), op.getM(), op.getV()},
        [&](OpBuilder &b, Location l, ValueRange a) {
          auto c = [&](double x) { return floatConst(b, l, elt, x); };
          Value w = a[0], g = a[1], m = a[2], v = a[3], lr = a[4];
          if (wd != 0.0)
            g = add(b, l, g, mul(b, l, c(wd), w));
          // t = step + 1, counted in i64 and then converted.
          Value one = arith::ConstantOp::create(b, l, b.getI64IntegerAttr(1));
          Value t = arith::SIToFPOp::create(
              b, l, elt, arith::AddIOp::create(b, l, a[5], one));
          Value mNew = add(b, l, mul(b, l, c(b1), m), mul(b, l, c(1 - b1), g));
          Value vNew = add(b, l, mul(b, l, c(b2), v),
                           mul(b, l, c(1 - b2), mul(b, l, g, g)));
          Value corr = arith::DivFOp::create(
              b, l,
              math::SqrtOp::create(
                  b, l,
                  sub(b, l, c(1.0), math::PowFOp::create(b, l, c(b2), t))),
              sub(b, l, c(1.0), math::PowFOp::create(b, l, c(b1), t)));
          Value denom = add(b, l, math::SqrtOp::create(b, l, vNew), c(eps));
          Value delta = mul(b, l, mul(b, l, lr, corr),
                            arith::DivFOp::create(b, l, mNew, denom));
          linalg::YieldOp::create(b, l,
                                  ValueRange{sub(b, l, w, delta), mNew, vNew});
        },
        results);
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void nnc::populateOptimizerToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<LearningRateLowering, IncrementLowering, SGDUpdateLowering,
               AdamUpdateLowering>(
      patterns.getContext());
}
