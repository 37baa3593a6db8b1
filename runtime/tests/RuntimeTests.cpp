//===- RuntimeTests.cpp - unit tests of libnnrt ---------------------------===//
//
// Part of nnc's runtime. Prints one line per failed check and a closing
// "N passed, N failed" line; exits non-zero on any failure.
//
//===----------------------------------------------------------------------===//

#include "nnrt/Init.h"
#include "nnrt/Json.h"
#include "nnrt/Model.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace nnrt;

extern "C" void memrefCopy(int64_t, void *, void *);

namespace {
int passed = 0, failed = 0;

void check(bool ok, const std::string &what) {
  if (ok) {
    ++passed;
    return;
  }
  ++failed;
  std::printf("FAILED: %s\n", what.c_str());
}

void testJson() {
  Json j;
  std::string error;
  check(
      parseJson(R"( {"a": [1, -2.5e3, true, null], "b": {"c": "x\"y\u0041"}} )",
                j, error),
      "valid JSON parses: " + error);
  check(j.get("a") && j.get("a")->array.size() == 4 &&
            j.get("a")->array[1].number == -2500 &&
            j.get("a")->array[2].boolean &&
            j.get("a")->array[3].kind == Json::Null,
        "array members");
  check(j.get("b") && j.get("b")->get("c") &&
            j.get("b")->get("c")->string == "x\"yA",
        "string escapes");
  check(!parseJson(R"({"a": })", j, error) &&
            error == "expected a value at offset 6",
        "missing value is reported with its offset: " + error);
  check(!parseJson("[1, 2", j, error), "unterminated array is rejected");
  check(!parseJson("\"abc", j, error) && error.find("unterminated") == 0,
        "unterminated string is rejected: " + error);
  check(!parseJson(std::string(100, '['), j, error) &&
            error.find("nesting too deep") == 0,
        "deep nesting is rejected: " + error);
  check(!parseJson("{} x", j, error), "trailing characters are rejected");
}

const char *kDescription = R"({"interface":1,"name":"m","batch_size":2,
  "parameters":[{"name":"d.weights","shape":[4,3],"dtype":"f32",
    "init":{"kind":"truncated_normal","mean":0,"stddev":0.1},"trainable":true},
    {"name":"bn.moving_mean","shape":[3],"dtype":"f32",
    "init":{"kind":"zeros"},"trainable":false}],
  "entry_points":[{"name":"loss","symbol":"_mlir_ciface_loss","packed":"nnc_loss",
    "args":[{"role":"param","name":"d.weights","shape":[4,3],"dtype":"f32"},
      {"role":"input","name":"x","shape":[2,4],"dtype":"f32","layout":"NC"},
      {"role":"labels","name":"y","shape":[2],"dtype":"i32","classes":3},
      {"role":"output","name":"output0","shape":[],"dtype":"f32"}]}],
  "optimizer":{"kind":"sgd","learning_rate":0.01}})";

void testModelInfo() {
  ModelInfo m;
  std::string error;
  check(readModelInfo(kDescription, m, error), "description reads: " + error);
  check(m.name == "m" && m.batchSize == 2 && m.parameters.size() == 2,
        "model fields");
  check(m.parameters[0].init.kind == "truncated_normal" &&
            m.parameters[0].init.stddev == 0.1 && !m.parameters[1].trainable,
        "parameter fields");
  const EntryPoint *loss = m.entryPoint("loss");
  check(loss && loss->packed == "nnc_loss" && loss->args.size() == 4 &&
            loss->args[2].classes == 3 && loss->args[1].layout == "NC" &&
            loss->args[3].shape.empty(),
        "entry point fields");
  check(!m.entryPoint("forward"), "absent entry point");
  check(m.optimizer.get("learning_rate")->number == 0.01, "optimizer");
  check(formatShape({128, 56, 56, 64}) == "[128, 56, 56, 64]", "formatShape");

  std::string v2 = kDescription;
  v2.replace(v2.find("\"interface\":1"), 13, "\"interface\":2");
  check(!readModelInfo(v2, m, error) &&
            error == "the model was compiled for interface 2; this runtime "
                     "reads 1",
        "other interface versions are refused: " + error);
  check(
      !readModelInfo(
          R"({"interface":1,"name":"m","parameters":[{"name":"p"}],"entry_points":[]})",
          m, error) &&
          error == "malformed model description: parameter 'p': missing "
                   "or malformed 'dtype'",
      "missing fields are named: " + error);
}

/// Mean and standard deviation of a sample.
std::pair<double, double> moments(const std::vector<float> &v) {
  double sum = 0, sq = 0;
  for (float x : v)
    sum += x, sq += double(x) * x;
  double mean = sum / v.size();
  return {mean, std::sqrt(sq / v.size() - mean * mean)};
}

void testInit() {
  std::mt19937_64 rng(42);
  Initializer tn{"truncated_normal", 0, 0, 0.1, 0, 0};
  std::vector<float> v(200000);
  initialize(tn, {200000}, v.data(), rng);
  bool inside = true;
  for (float x : v)
    inside &= std::fabs(x) <= 0.2f;
  auto [mean, sd] = moments(v);
  check(inside, "truncated normal stays within two standard deviations");
  // A normal truncated at 2 sigma has 0.8796 sigma.
  check(std::fabs(mean) < 0.002 && std::fabs(sd / 0.1 - 0.8796) < 0.01,
        "truncated normal moments: sd " + std::to_string(sd));

  Shape dense = {3072, 3000};
  std::vector<float> w(elementCount(dense));
  initialize({"glorot_uniform"}, dense, w.data(), rng);
  double limit = std::sqrt(6.0 / (3072 + 3000)), lo = 1, hi = -1;
  for (float x : w)
    lo = std::fmin(lo, x), hi = std::fmax(hi, x);
  check(lo >= -limit && hi <= limit && hi > 0.99 * limit && lo < -0.99 * limit,
        "glorot uniform spans +-sqrt(6 / (fan_in + fan_out))");

  Shape filter = {5, 5, 64, 64};
  std::vector<float> f(elementCount(filter));
  initialize({"he_normal"}, filter, f.data(), rng);
  double want = std::sqrt(2.0 / (5 * 5 * 64));
  check(std::fabs(moments(f).second / want - 1) < 0.03,
        "he normal (HWIO fans) has stddev sqrt(2 / fan_in)");

  std::vector<float> c(7);
  initialize({"constant", 0.1}, {7}, c.data(), rng);
  check(c[0] == 0.1f && c[6] == 0.1f, "constant");

  std::mt19937_64 a(7), b(7), d(8);
  std::vector<float> x(16), y(16), z(16);
  initialize(tn, {16}, x.data(), a);
  initialize(tn, {16}, y.data(), b);
  initialize(tn, {16}, z.data(), d);
  check(x == y && x != z, "initialisation is reproducible from the seed");
}

void testMemrefCopy() {
  // Copy a 4x5 view at (1, 2) of a 6x7 buffer into a dense 4x5 buffer.
  std::vector<float> src(6 * 7), dst(4 * 5, -1);
  for (size_t i = 0; i < src.size(); ++i)
    src[i] = float(i);
  struct Desc2 {
    float *allocated, *aligned;
    int64_t offset, sizes[2], strides[2];
  } s{src.data(), src.data(), 1 * 7 + 2, {4, 5}, {7, 1}},
      d{dst.data(), dst.data(), 0, {4, 5}, {5, 1}};
  struct Unranked {
    int64_t rank;
    void *descriptor;
  } us{2, &s}, ud{2, &d};
  memrefCopy(sizeof(float), &us, &ud);
  bool ok = true;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j)
      ok &= dst[i * 5 + j] == src[(i + 1) * 7 + (j + 2)];
  check(ok, "memrefCopy copies a strided view");
}
} // namespace

int main() {
  testJson();
  testModelInfo();
  testInit();
  testMemrefCopy();
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
