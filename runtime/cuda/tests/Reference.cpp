//===- Reference.cpp - straightforward CPU versions of the calls ----------===//
//
// Part of nnc's runtime (the CUDA runtime's tests).
//
//===----------------------------------------------------------------------===//

#include "Reference.h"

#include <cmath>
#include <limits>

using namespace nnrt::cuda::test;

namespace {
/// Visits every (output pixel, filter tap) pair whose input position is
/// inside the image: f(n, oy, ox, ky, kx, iy, ix).
template <typename F> void taps(const ConvShape &s, F f) {
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t oy = 0; oy < s.oh(); ++oy)
      for (int64_t ox = 0; ox < s.ow(); ++ox)
        for (int64_t ky = 0; ky < s.kh; ++ky)
          for (int64_t kx = 0; kx < s.kw; ++kx) {
            int64_t iy = oy * s.strideH - s.padH + ky * s.dilationH;
            int64_t ix = ox * s.strideW - s.padW + kx * s.dilationW;
            if (iy >= 0 && iy < s.h && ix >= 0 && ix < s.w)
              f(n, oy, ox, ky, kx, iy, ix);
          }
}

std::vector<float> toFloat(const std::vector<double> &v) {
  return std::vector<float>(v.begin(), v.end());
}
} // namespace

std::vector<float> nnrt::cuda::test::convForward(const ConvShape &s,
                                                 const std::vector<float> &x,
                                                 const std::vector<float> &w) {
  std::vector<double> y(s.n * s.oh() * s.ow() * s.f, 0);
  taps(s, [&](int64_t n, int64_t oy, int64_t ox, int64_t ky, int64_t kx,
              int64_t iy, int64_t ix) {
    for (int64_t c = 0; c < s.c; ++c)
      for (int64_t f = 0; f < s.f; ++f)
        y[((n * s.oh() + oy) * s.ow() + ox) * s.f + f] +=
            double(x[((n * s.h + iy) * s.w + ix) * s.c + c]) *
            w[((ky * s.kw + kx) * s.c + c) * s.f + f];
  });
  return toFloat(y);
}

std::vector<float>
nnrt::cuda::test::convBackwardData(const ConvShape &s,
                                   const std::vector<float> &dy,
                                   const std::vector<float> &w) {
  std::vector<double> dx(s.n * s.h * s.w * s.c, 0);
  taps(s, [&](int64_t n, int64_t oy, int64_t ox, int64_t ky, int64_t kx,
              int64_t iy, int64_t ix) {
    for (int64_t c = 0; c < s.c; ++c)
      for (int64_t f = 0; f < s.f; ++f)
        dx[((n * s.h + iy) * s.w + ix) * s.c + c] +=
            double(dy[((n * s.oh() + oy) * s.ow() + ox) * s.f + f]) *
            w[((ky * s.kw + kx) * s.c + c) * s.f + f];
  });
  return toFloat(dx);
}

std::vector<float>
nnrt::cuda::test::convBackwardFilter(const ConvShape &s,
                                     const std::vector<float> &x,
                                     const std::vector<float> &dy) {
  std::vector<double> dw(s.kh * s.kw * s.c * s.f, 0);
  taps(s, [&](int64_t n, int64_t oy, int64_t ox, int64_t ky, int64_t kx,
              int64_t iy, int64_t ix) {
    for (int64_t c = 0; c < s.c; ++c)
      for (int64_t f = 0; f < s.f; ++f)
        dw[((ky * s.kw + kx) * s.c + c) * s.f + f] +=
            double(x[((n * s.h + iy) * s.w + ix) * s.c + c]) *
            dy[((n * s.oh() + oy) * s.ow() + ox) * s.f + f];
  });
  return toFloat(dw);
}

namespace {
/// Visits the real (unpadded) input positions of every pooling window:
/// f(outputIndex, inputIndex, count) where count is the window's number of
/// real positions; `start(out)` runs before each window.
template <typename Start, typename F>
void windows(const PoolShape &s, Start start, F f) {
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t oy = 0; oy < s.oh(); ++oy)
      for (int64_t ox = 0; ox < s.ow(); ++ox)
        for (int64_t c = 0; c < s.c; ++c) {
          int64_t out = ((n * s.oh() + oy) * s.ow() + ox) * s.c + c;
          int64_t y0 = oy * s.strideH - s.padH, x0 = ox * s.strideW - s.padW;
          int64_t count = 0;
          for (int64_t iy = y0; iy < y0 + s.windowH; ++iy)
            for (int64_t ix = x0; ix < x0 + s.windowW; ++ix)
              count += iy >= 0 && iy < s.h && ix >= 0 && ix < s.w;
          start(out);
          for (int64_t iy = y0; iy < y0 + s.windowH; ++iy)
            for (int64_t ix = x0; ix < x0 + s.windowW; ++ix)
              if (iy >= 0 && iy < s.h && ix >= 0 && ix < s.w)
                f(out, ((n * s.h + iy) * s.w + ix) * s.c + c, count);
        }
}
} // namespace

std::vector<float> nnrt::cuda::test::poolForward(const PoolShape &s,
                                                 const std::vector<float> &x) {
  std::vector<double> y(s.n * s.oh() * s.ow() * s.c);
  windows(
      s,
      [&](int64_t out) {
        y[out] = s.max ? -std::numeric_limits<double>::infinity() : 0;
      },
      [&](int64_t out, int64_t in, int64_t count) {
        y[out] = s.max ? std::max(y[out], double(x[in]))
                       : y[out] + double(x[in]) / count;
      });
  return toFloat(y);
}

std::vector<float>
nnrt::cuda::test::poolBackward(const PoolShape &s, const std::vector<float> &x,
                               const std::vector<float> &dy) {
  std::vector<double> dx(x.size(), 0);
  if (!s.max) {
    windows(
        s, [](int64_t) {},
        [&](int64_t out, int64_t in, int64_t count) {
          dx[in] += double(dy[out]) / count;
        });
    return toFloat(dx);
  }
  // Max: each window's gradient goes to its (first) maximum.
  std::vector<int64_t> argmax(dy.size(), -1);
  windows(
      s, [](int64_t) {},
      [&](int64_t out, int64_t in, int64_t) {
        if (argmax[out] < 0 || x[in] > x[argmax[out]])
          argmax[out] = in;
      });
  for (size_t out = 0; out < dy.size(); ++out)
    dx[argmax[out]] += dy[out];
  return toFloat(dx);
}

namespace {
/// s_c = bias + alpha * sum of squares over the window around c.
std::vector<double> scales(const LRNParams &p, const std::vector<float> &x) {
  std::vector<double> s(x.size());
  for (int64_t i = 0; i < p.pixels; ++i)
    for (int64_t c = 0; c < p.c; ++c) {
      double sum = 0;
      for (int64_t d = c - p.radius; d <= c + p.radius; ++d)
        if (d >= 0 && d < p.c)
          sum += double(x[i * p.c + d]) * x[i * p.c + d];
      s[i * p.c + c] = p.bias + p.alpha * sum;
    }
  return s;
}
} // namespace

std::vector<float> nnrt::cuda::test::lrnForward(const LRNParams &p,
                                                const std::vector<float> &x) {
  std::vector<double> s = scales(p, x), y(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    y[i] = x[i] * std::pow(s[i], -p.beta);
  return toFloat(y);
}

std::vector<float> nnrt::cuda::test::lrnBackward(const LRNParams &p,
                                                 const std::vector<float> &x,
                                                 const std::vector<float> &dy) {
  // dx_j = dy_j s_j^-beta
  //        - 2 alpha beta x_j sum_{c: |c-j| <= r} dy_c x_c s_c^(-beta-1)
  std::vector<double> s = scales(p, x), dx(x.size());
  for (int64_t i = 0; i < p.pixels; ++i)
    for (int64_t j = 0; j < p.c; ++j) {
      int64_t at = i * p.c + j;
      double sum = 0;
      for (int64_t c = j - p.radius; c <= j + p.radius; ++c)
        if (c >= 0 && c < p.c)
          sum += double(dy[i * p.c + c]) * x[i * p.c + c] *
                 std::pow(s[i * p.c + c], -p.beta - 1);
      dx[at] = dy[at] * std::pow(s[at], -p.beta) -
               2 * p.alpha * p.beta * x[at] * sum;
    }
  return toFloat(dx);
}

std::vector<float> nnrt::cuda::test::batchNormInference(
    const BatchNormShape &s, const std::vector<float> &x,
    const std::vector<float> &scale, const std::vector<float> &offset,
    const std::vector<float> &mean, const std::vector<float> &variance) {
  std::vector<double> y(x.size());
  for (int64_t i = 0; i < s.pixels; ++i)
    for (int64_t c = 0; c < s.c; ++c) {
      int64_t at = i * s.c + c;
      y[at] = scale[c] * (double(x[at]) - mean[c]) /
                  std::sqrt(double(variance[c]) + s.epsilon) +
              offset[c];
    }
  return toFloat(y);
}

BatchNormStats nnrt::cuda::test::batchNormTrain(
    const BatchNormShape &s, const std::vector<float> &x,
    const std::vector<float> &scale, const std::vector<float> &offset) {
  std::vector<double> mean(s.c, 0), variance(s.c, 0);
  for (int64_t i = 0; i < s.pixels; ++i)
    for (int64_t c = 0; c < s.c; ++c)
      mean[c] += x[i * s.c + c];
  for (double &m : mean)
    m /= double(s.pixels);
  for (int64_t i = 0; i < s.pixels; ++i)
    for (int64_t c = 0; c < s.c; ++c) {
      double d = x[i * s.c + c] - mean[c];
      variance[c] += d * d;
    }
  for (double &v : variance)
    v /= double(s.pixels);
  BatchNormStats out{{}, toFloat(mean), toFloat(variance)};
  out.y = batchNormInference(s, x, scale, offset, out.mean, out.variance);
  return out;
}

BatchNormGrads nnrt::cuda::test::batchNormGrad(
    const BatchNormShape &s, const std::vector<float> &x,
    const std::vector<float> &scale, const std::vector<float> &mean,
    const std::vector<float> &variance, const std::vector<float> &dy) {
  // dx = scale * rstd * (dy - sum(dy) / n - xhat * sum(dy * xhat) / n)
  std::vector<double> rstd(s.c), dscale(s.c, 0), doffset(s.c, 0), dx(x.size());
  auto xhat = [&](int64_t i, int64_t c) {
    return (double(x[i * s.c + c]) - mean[c]) * rstd[c];
  };
  for (int64_t c = 0; c < s.c; ++c)
    rstd[c] = 1 / std::sqrt(double(variance[c]) + s.epsilon);
  for (int64_t i = 0; i < s.pixels; ++i)
    for (int64_t c = 0; c < s.c; ++c) {
      doffset[c] += dy[i * s.c + c];
      dscale[c] += dy[i * s.c + c] * xhat(i, c);
    }
  double n = double(s.pixels);
  for (int64_t i = 0; i < s.pixels; ++i)
    for (int64_t c = 0; c < s.c; ++c)
      dx[i * s.c + c] =
          scale[c] * rstd[c] *
          (dy[i * s.c + c] - doffset[c] / n - xhat(i, c) * dscale[c] / n);
  return {toFloat(dx), toFloat(dscale), toFloat(doffset)};
}

std::vector<float> nnrt::cuda::test::matmul(int64_t m, int64_t n, int64_t k,
                                            bool transA, bool transB,
                                            const std::vector<float> &a,
                                            const std::vector<float> &b,
                                            const std::vector<float> *bias,
                                            bool relu) {
  std::vector<double> c(m * n, 0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = bias ? (*bias)[j] : 0;
      for (int64_t l = 0; l < k; ++l)
        sum += double(transA ? a[l * m + i] : a[i * k + l]) *
               (transB ? b[j * k + l] : b[l * n + j]);
      c[i * n + j] = relu && sum < 0 ? 0 : sum;
    }
  return toFloat(c);
}
