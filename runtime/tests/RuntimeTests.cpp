//===- RuntimeTests.cpp - unit tests of libnnrt ---------------------------===//
//
// Part of nnc's runtime. Prints one line per failed check and a closing
// "N passed, N failed" line; exits non-zero on any failure.
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include "../main/Progress.h"

#include "nnrt/Alloc.h"
#include "nnrt/Archive.h"
#include "nnrt/Data.h"
#include "nnrt/Device.h"
#include "nnrt/File.h"
#include "nnrt/Init.h"
#include "nnrt/Json.h"
#include "nnrt/Model.h"
#include "nnrt/Npz.h"
#include "nnrt/Session.h"
#include "nnrt/Stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace nnrt;

extern "C" void memrefCopy(int64_t, void *, void *);

namespace {
using nnrt::test::check;

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

void testBuildTarget() {
  ModelInfo m;
  std::string error;
  check(readModelInfo(kDescription, m, error) && m.target() == "cpu" &&
            m.precision() == "fp32",
        "a description without build.target is for the CPU, in fp32");
  std::string cuda = kDescription;
  cuda.insert(cuda.rfind('}'), R"(,"build":{"compiler":"nnc 0.1.0",
    "target":"cuda","precision":"bf16","gpu_arch":"sm_90"})");
  check(readModelInfo(cuda, m, error) && m.target() == "cuda" &&
            m.precision() == "bf16" && m.build.at("gpu_arch") == "sm_90",
        "build.target, precision and gpu_arch read back: " + error);
  std::string tpu = cuda;
  tpu.replace(tpu.find("\"cuda\""), 6, "\"tpu\"");
  check(!readModelInfo(tpu, m, error) &&
            error == "malformed model description: build target 'tpu' is "
                     "neither cpu nor cuda",
        "an unknown target is refused: " + error);
  std::string fp8 = cuda;
  fp8.replace(fp8.find("\"bf16\""), 6, "\"fp8\"");
  check(!readModelInfo(fp8, m, error) &&
            error == "malformed model description: build precision 'fp8' "
                     "is not fp32, tf32 or bf16",
        "an unknown precision is refused: " + error);
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
void testTensor() {
  Tensor t(DType::F32, {2, 3, 4});
  auto *d = static_cast<int64_t *>(t.descriptor());
  check(d[0] == d[1] && reinterpret_cast<void *>(d[1]) == t.data() && d[2] == 0,
        "descriptor: allocated = aligned = data, offset 0");
  check(d[3] == 2 && d[4] == 3 && d[5] == 4 && d[6] == 12 && d[7] == 4 &&
            d[8] == 1,
        "descriptor: sizes then row-major strides");
  check(reinterpret_cast<uintptr_t>(t.data()) % 64 == 0 && t.f32()[23] == 0,
        "buffers are 64-byte aligned and zeroed");
}

void testJsonFormat() {
  Json j;
  j["name"] = "a \"quoted\"\nname";
  j["x"] = 0.1;
  j["n"] = int64_t(123456789012);
  j["list"] = Json::makeArray();
  j["list"].array.push_back(true);
  j["empty"] = Json::makeObject();
  std::string text = formatJson(j), error;
  Json back;
  check(parseJson(text, back, error) &&
            back.get("name")->string == j.get("name")->string &&
            back.get("x")->number == 0.1 &&
            back.get("n")->number == 123456789012.0 &&
            back.get("list")->array.size() == 1 &&
            back.get("empty")->kind == Json::Object,
        "formatJson output parses back to the same values: " + error);
  check(text.find("\"x\": 0.1") != std::string::npos,
        "numbers are written in their shortest exact form");
  Json whole;
  whole["steps"] = int64_t(100);
  whole["seconds"] = 2.5e-5;
  std::string wholeText = formatJson(whole);
  check(wholeText.find("\"steps\": 100") != std::string::npos &&
            wholeText.find("\"seconds\": 2.5e-05") != std::string::npos,
        "whole numbers are written as integers: " + wholeText);
}

void testNpz() {
  check(crc32("123456789", 9) == 0xCBF43926u, "CRC-32 check value");
  Tensor a(DType::F32, {3, 2}), b(DType::I32, {5}), c(DType::F32, {});
  for (int i = 0; i < 6; ++i)
    a.f32()[i] = 0.5f * i - 1;
  for (int i = 0; i < 5; ++i)
    b.i32()[i] = -i;
  c.f32()[0] = 42;
  std::string path = "/tmp/nnrt-tests-" + std::to_string(getpid()) + ".npz",
              error;
  check(writeNpz(path, {{"conv1.weights", &a}, {"labels", &b}, {"loss", &c}},
                 error),
        "writeNpz: " + error);
  std::map<std::string, Tensor> back;
  check(readNpz(path, back, error), "readNpz: " + error);
  check(back.size() == 3 && back["conv1.weights"].shape() == a.shape() &&
            std::memcmp(back["conv1.weights"].data(), a.data(), a.bytes()) ==
                0 &&
            back["labels"].type() == DType::I32 &&
            std::memcmp(back["labels"].data(), b.data(), b.bytes()) == 0 &&
            back["loss"].shape().empty() && back["loss"].f32()[0] == 42,
        "an archive reads back the same names, shapes, types and values");
  // A flipped data byte is caught by the CRC.
  FILE *f = std::fopen(path.c_str(), "r+b");
  std::fseek(f, 120, SEEK_SET); // in conv1.weights' data
  int byte = std::fgetc(f);
  std::fseek(f, 120, SEEK_SET); // in conv1.weights' data
  std::fputc(byte ^ 1, f);
  std::fclose(f);
  check(!readNpz(path, back, error) &&
            error.find("CRC mismatch") != std::string::npos,
        "a corrupt entry is refused: " + error);
  std::remove(path.c_str());
}

void testPreprocessing() {
  Preprocessing p;
  std::string error;
  ImageSet cifar;
  check(choosePreprocessing(cifar, {4, 24, 24, 3}, p, error) &&
            p.kind == Preprocessing::CropStandardize && p.height == 24,
        "a 24x24 input takes standardised crops");
  check(choosePreprocessing(cifar, {4, 32, 32, 3}, p, error) &&
            p.kind == Preprocessing::Scale,
        "a 32x32 input takes scaled images");
  check(choosePreprocessing(cifar, {4, 3072}, p, error) && p.flat,
        "a 3072-wide input takes flat scaled images");
  check(!choosePreprocessing(cifar, {4, 224, 224, 3}, p, error) &&
            error.find("[4, 224, 224, 3]") != std::string::npos,
        "a 224x224 input is refused with its shape");

  // A flat image standardises to zeros (the stddev floor), not NaN; a
  // random crop stays inside the image.
  ImageSet set;
  set.pixels.assign(2 * cifar.pixelsPerImage(), 7);
  set.labels = {3, 9};
  for (int i = 0; i < 1024; ++i)
    set.pixels[set.pixelsPerImage() + i] = static_cast<uint8_t>(i % 251);
  choosePreprocessing(set, {2, 24, 24, 3}, p, error);
  Tensor images(DType::F32, {2, 24, 24, 3}), labels(DType::I32, {2});
  std::mt19937_64 rng(1);
  fillBatch(set, {0, 1}, 0, p, /*augment=*/true, rng, images, &labels);
  bool zeros = true, finite = true;
  for (int i = 0; i < 24 * 24 * 3; ++i)
    zeros &= images.f32()[i] == 0;
  double sum = 0, sumSq = 0;
  for (int i = 24 * 24 * 3; i < 2 * 24 * 24 * 3; ++i) {
    float v = images.f32()[i];
    finite &= std::isfinite(v);
    sum += v, sumSq += double(v) * v;
  }
  double n = 24 * 24 * 3, mean = sum / n;
  check(zeros, "a flat image standardises to zeros");
  check(finite && std::fabs(mean) < 1e-5 &&
            std::fabs(sumSq / n - mean * mean - 1) < 1e-4,
        "a standardised crop has zero mean and unit variance");
  check(labels.i32()[0] == 3 && labels.i32()[1] == 9,
        "labels follow their images");
}
void testStats() {
  check(median({}) == 0 && median({3, 1, 2}) == 2 &&
            median({4, 1, 3, 2}) == 2.5,
        "median of odd and even counts");
  // Steps of 1, 2, 4 and 4 seconds, batch 8: speeds 8, 4, 2, 2 images/s.
  Throughput t = throughput(8, {1, 2, 4, 4});
  check(std::fabs(t.mean - 8 / 2.75) < 1e-12,
        "the mean speed is the batch over the mean step time: " +
            std::to_string(t.mean));
  // Population stddev of {8, 4, 2, 2} is sqrt(6) (mean 4), over sqrt(4).
  check(std::fabs(t.uncertainty - std::sqrt(6.0) / 2) < 1e-12,
        "the uncertainty is the speeds' standard error: " +
            std::to_string(t.uncertainty));
  // Median speed 3; deviations 5, 1, 1, 1; their median 1.
  check(std::fabs(t.jitter - 1.4826) < 1e-12,
        "the jitter is 1.4826 times the median absolute deviation: " +
            std::to_string(t.jitter));
  Throughput steady = throughput(32, {0.5, 0.5, 0.5});
  check(steady.mean == 64 && steady.uncertainty == 0 && steady.jitter == 0,
        "equal steps have no spread");
  Throughput none = throughput(32, {});
  check(none.mean == 0 && none.uncertainty == 0 && none.jitter == 0,
        "no steps, no figures");
}

void testBenchmarkData() {
  Tensor images(DType::F32, {4, 32, 32, 3});
  std::mt19937_64 rng(1);
  fillBenchmarkImages(images, rng);
  std::vector<float> v(images.f32(), images.f32() + images.size());
  bool inside = true;
  for (float x : v)
    inside &= x >= 127 - 120 && x <= 127 + 120;
  auto [mean, sd] = moments(v);
  check(inside, "benchmark images stay within two stddevs of 127");
  check(std::fabs(mean - 127) < 2 && std::fabs(sd / 60 - 0.8796) < 0.02,
        "benchmark images: truncated normal of mean 127, stddev 60: mean " +
            std::to_string(mean) + ", sd " + std::to_string(sd));
  Tensor labels(DType::I32, {10000}), wide(DType::I64, {100});
  fillLabels(labels, 1000, rng);
  fillLabels(wide, 5, rng);
  int32_t lo = 1000, hi = -1;
  for (int64_t i = 0; i < labels.size(); ++i)
    lo = std::min(lo, labels.i32()[i]), hi = std::max(hi, labels.i32()[i]);
  bool wideInside = true;
  for (int64_t i = 0; i < wide.size(); ++i)
    wideInside &= wide.i64()[i] >= 0 && wide.i64()[i] < 5;
  check(lo == 0 && hi == 999 && wideInside,
        "labels are uniform over [0, classes), i32 or i64");
}

const char *kCounterDescription = R"({"interface":1,"name":"c",
  "parameters":[{"name":"w","shape":[2],"dtype":"f32",
    "init":{"kind":"constant","value":0.5},"trainable":true},
    {"name":"global_step","shape":[],"dtype":"i64",
    "init":{"kind":"zeros"},"trainable":false}],
  "entry_points":[]})";

void testI64() {
  DType t;
  check(parseDType("i64", t) && t == DType::I64 &&
            std::string(dtypeName(t)) == "i64" && elementSize(t) == 8,
        "i64 parses, prints and takes 8 bytes");
  Tensor step(DType::I64, {3});
  check(step.bytes() == 24 && step.i64()[2] == 0, "an i64 tensor is zeroed");

  Session s;
  std::string error;
  check(s.open(kCounterDescription, error), "an i64 parameter opens: " + error);
  s.parameter(1).i64()[0] = 99;
  s.initParameters(1);
  check(s.parameter(1).type() == DType::I64 && s.parameter(1).i64()[0] == 0 &&
            s.parameter(0).f32()[1] == 0.5f,
        "an i64 parameter initialises to zero");

  std::string bad = kCounterDescription;
  bad.replace(bad.rfind("\"zeros\""), 7, "\"he_normal\"");
  Session r;
  check(!r.open(bad, error) &&
            error == "parameter 'global_step' of element type i64 has the "
                     "initialiser 'he_normal'; integer parameters take zeros "
                     "or constant",
        "a random initialiser of an integer parameter is refused: " + error);

  // Saved and loaded back as '<i8'.
  std::string path = "/tmp/nnrt-tests-i64-" + std::to_string(getpid()) + ".npz";
  s.parameter(1).i64()[0] = int64_t(1) << 40;
  check(s.saveParameters(path, error), "saving an i64 parameter: " + error);
  std::map<std::string, Tensor> back;
  check(readNpz(path, back, error) &&
            back["global_step"].type() == DType::I64 &&
            back["global_step"].i64()[0] == int64_t(1) << 40,
        "an i64 array reads back: " + error);
  std::vector<std::string> ignored;
  s.parameter(1).i64()[0] = 0;
  check(s.loadParameters(path, error, ignored) &&
            s.parameter(1).i64()[0] == int64_t(1) << 40,
        "an i64 parameter loads: " + error);

  // An older archive holds the step counter as f32: it converts.
  Tensor w(DType::F32, {2}), f32Step(DType::F32, {});
  f32Step.f32()[0] = 1234;
  check(writeNpz(path, {{"w", &w}, {"global_step", &f32Step}}, error),
        "writing an f32 step counter: " + error);
  check(s.loadParameters(path, error, ignored) &&
            s.parameter(1).i64()[0] == 1234,
        "an f32 step counter loads into the i64 parameter: " + error);
  f32Step.f32()[0] = 2.5f;
  writeNpz(path, {{"w", &w}, {"global_step", &f32Step}}, error);
  check(!s.loadParameters(path, error, ignored) &&
            error.find("'global_step' is f32[]; the model's parameter is "
                       "i64[], and not every value is a whole number") !=
                std::string::npos,
        "a fractional step counter is refused: " + error);
  // A float parameter takes no integer array.
  Tensor iw(DType::I64, {2}), i64Step(DType::I64, {});
  writeNpz(path, {{"w", &iw}, {"global_step", &i64Step}}, error);
  check(!s.loadParameters(path, error, ignored) &&
            error.find("'w' is i64[2]; the model's parameter is f32[2]") !=
                std::string::npos,
        "an integer array for a float parameter is refused: " + error);
  std::remove(path.c_str());
}

void testBenchmarkField() {
  ModelInfo m;
  std::string error;
  check(readModelInfo(kDescription, m, error) && m.benchmark.empty(),
        "a description without a benchmark has none");
  std::string tf = kDescription;
  tf.insert(tf.rfind('}'), R"(,"benchmark":"tf_cnn_benchmarks")");
  check(readModelInfo(tf, m, error) && m.benchmark == "tf_cnn_benchmarks",
        "the benchmark reads back: " + error);
  std::string other = tf;
  other.replace(other.find("tf_cnn_benchmarks"), 17, "mlperf");
  check(!readModelInfo(other, m, error) &&
            error == "malformed model description: benchmark 'mlperf' is "
                     "not tf_cnn_benchmarks",
        "an unknown benchmark is refused: " + error);
}
} // namespace

/// Which arguments a device uploads on every run: tf_cnn_benchmarks' mode
/// keeps the images and sends new labels.
void testDeviceUploads() {
  check(!uploadsEveryStep(Uploads::Once, "input") &&
            !uploadsEveryStep(Uploads::Once, "labels"),
        "synthetic inputs and labels go up once");
  check(!uploadsEveryStep(Uploads::Labels, "input") &&
            uploadsEveryStep(Uploads::Labels, "labels"),
        "tf-cnn: labels every step, images once");
  check(uploadsEveryStep(Uploads::EveryStep, "input") &&
            uploadsEveryStep(Uploads::EveryStep, "labels"),
        "real data: inputs and labels every step");
  check(!uploadsEveryStep(Uploads::EveryStep, "output") &&
            !uploadsEveryStep(Uploads::Labels, "param"),
        "outputs and parameters are never uploaded per step");
}

void runReaderTests();   // ReaderTests.cpp
void runParallelTests(); // ParallelTests.cpp

void testProgress() {
  check(stepCount(7, 100) == "  7/100", "step counts are right-aligned");
  check(stepCount(100, 100) == "100/100", "the last step count");
  check(formatEta(7.4) == "7s" && formatEta(65) == "1:05" &&
            formatEta(3723) == "1:02:03",
        "ETAs as Keras writes them");
  check(progressBar(5, 10, 10) == "[=====>....]" &&
            progressBar(10, 10, 10) == "[==========]",
        "the bar's arrow and full bar");
  std::string rest = "ETA: 3s - loss: 0.1234 - accuracy: 0.5678";
  for (int columns : {20, 40, 70, 80, 120}) {
    std::string line =
        fitProgressLine(stepCount(5, 100), 5, 100, rest, columns);
    check(static_cast<int>(line.size()) <= columns - 1,
          "a progress line fits in " + std::to_string(columns) + " columns");
  }
  check(fitProgressLine("5/100", 5, 100, rest, 120).find("[") !=
            std::string::npos,
        "a wide terminal shows the bar");
  check(fitProgressLine("5/100", 5, 100, rest, 50).find("[") ==
            std::string::npos,
        "a narrow terminal drops the bar before the figures");
  std::string final = "100/100 [==============================] - 8s "
                      "79ms/step - loss: 0.8652 - accuracy: 0.8766";
  check(wrapLine(final, 120) == final, "a line that fits is kept whole");
  std::string wrapped = wrapLine(final, 50);
  size_t start = 0, longest = 0, breaks = 0;
  for (size_t nl; (nl = wrapped.find('\n', start)) != std::string::npos;
       start = nl + 1, ++breaks)
    longest = std::max(longest, nl - start);
  longest = std::max(longest, wrapped.size() - start);
  check(longest <= 49 && breaks == 1 &&
            wrapped.rfind("100/100 [====", 0) == 0 &&
            wrapped.find("\n  8s 79ms/step - loss") != std::string::npos,
        "a long final line breaks at its separators: " + wrapped);
}

void testGunzip() {
  // gzip.compress(b"hello\n", mtime=0), twice: two members, as `cat` joins.
  const unsigned char member[] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00,
                                  0x00, 0x02, 0x03, 0xcb, 0x48, 0xcd, 0xc9,
                                  0xc9, 0xe7, 0x02, 0x00, 0x20, 0x30, 0x3a,
                                  0x36, 0x06, 0x00, 0x00, 0x00};
  std::string one(reinterpret_cast<const char *>(member), sizeof member);
  std::string out, error;
  check(isGzip(one) && gunzip(one, "one.gz", out, error) && out == "hello\n",
        "gunzip inflates a member: " + error);
  check(gunzip(one + one, "two.gz", out, error) && out == "hello\nhello\n",
        "gunzip inflates every member: " + error);
  check(!gunzip(one.substr(0, 15), "cut.gz", out, error) &&
            error == "'cut.gz' is not a complete gzip file (it ends early)",
        "a truncated stream is an error: " + error);
  std::vector<std::pair<std::string, std::string>> files;
  std::string tar(1024, '\0');
  check(readTar(tar, "empty.tar", files, error) && files.empty(),
        "an empty tar archive has no files: " + error);
  check(!readTar(std::string(600, 'x'), "x.tar", files, error) &&
            error == "'x.tar' is not a tar archive (bad header at byte 0)",
        "a file that is not a tar archive is an error: " + error);
}

namespace {
/// The text of the file `path`.
std::string contents(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void testAtomicFiles() {
  std::string dir = "/tmp/nnrt-files-" + std::to_string(getpid()), error;
  mkdir(dir.c_str(), 0755);
  std::string file = dir + "/out.json", link = dir + "/link.json";
  check(writeFileAtomically(file, "one", error) && contents(file) == "one",
        "a new file is written: " + error);
  chmod(file.c_str(), 0600);
  check(symlink("out.json", link.c_str()) == 0, "symlink");
  // A temporary of a process that is gone (no pid is this large) and one
  // of this process's own name pattern but not a number.
  std::string stale = file + ".tmp.4194305", other = file + ".tmp.x";
  for (const std::string &path : {stale, other})
    std::ofstream(path) << "left over";
  check(writeFileAtomically(link, "two", error), "through a link: " + error);
  struct stat st;
  check(lstat(link.c_str(), &st) == 0 && S_ISLNK(st.st_mode),
        "the link stays a link");
  check(stat(file.c_str(), &st) == 0 && (st.st_mode & 07777) == 0600 &&
            contents(file) == "two",
        "the link's target is replaced and keeps its mode");
  check(access(stale.c_str(), F_OK) != 0 && access(other.c_str(), F_OK) == 0,
        "a dead process's temporary is removed, nothing else");
  check(!writeFileAtomically(dir + "/none/x", "x", error) &&
            error.find("cannot write '" + dir + "/none/x'") == 0,
        "a missing directory is an error: " + error);
  check(checkWritable(file, error), "checkWritable on a file: " + error);
  check(!checkWritable(dir, error) &&
            error == "cannot write '" + dir + "': it is a directory",
        "checkWritable refuses a directory: " + error);
  check(!checkWritable(file + "/x", error) &&
            error.find("is not a directory") != std::string::npos,
        "checkWritable refuses a path under a file: " + error);
  check(!checkWritable("/proc/x", error) &&
            error.find("cannot create files in '/proc'") != std::string::npos,
        "checkWritable refuses /proc: " + error);
  for (const std::string &path : {file, link, other})
    std::remove(path.c_str());
  rmdir(dir.c_str());
}
} // namespace

/// A freed block at the top of the heap stays mapped, however large: the
/// next step's allocation of it faults in no fresh pages. 2.25 GiB is
/// above the largest threshold mallopt could set before (INT_MAX); it is
/// reserved with brk but never touched.
void testHeapKeptMapped() {
  keepHeapMapped();
  size_t bytes = (size_t(9) << 30) / 4;
  static void *volatile block; // kept: the compiler may not elide the pair
  block = std::malloc(bytes);
  void *p = block;
  check(p != nullptr, "a 2.25 GiB block comes from the heap");
  if (!p)
    return;
  void *top = sbrk(0);
  std::free(p);
  check(sbrk(0) == top, "freeing it leaves the heap's end where it was");
}

extern "C" void *_mlir_memref_to_llvm_alloc(uint64_t bytes);
extern "C" void _mlir_memref_to_llvm_free(void *p);

/// The compiled model's buffers start on a cache line even when its code
/// asks for no alignment (a caller's buffers for a called entry point's
/// results), whatever their size.
void testAllocAligned() {
  for (uint64_t bytes : {uint64_t(0), uint64_t(4), uint64_t(100),
                         uint64_t(4100), uint64_t(3) << 20}) {
    void *p = _mlir_memref_to_llvm_alloc(bytes);
    check(p && reinterpret_cast<uintptr_t>(p) % 64 == 0,
          "a buffer of " + std::to_string(bytes) + " bytes is 64-byte aligned");
    _mlir_memref_to_llvm_free(p);
  }
}

#if defined(__SANITIZE_ADDRESS__)
#define NNRT_TESTS_ASAN
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NNRT_TESTS_ASAN
#endif
#endif

/// A step that allocates a large buffer, frees it and leaves a small
/// allocation behind (the bench program's record of the step) reuses the
/// buffer the next step: the heap does not grow by a block a step, nor
/// fault in fresh pages. With glibc's aligned_alloc it grew 16 MiB a step.
void testAllocReused() {
#ifdef NNRT_TESTS_ASAN
  return; // AddressSanitizer's allocator holds freed blocks back on purpose
#endif
  keepHeapMapped();
  uint64_t bytes = (uint64_t(16) << 20) + 64; // a 2048 x 2048 f32, aligned
  std::vector<void *> small;
  std::vector<void *> blocks;
  for (int step = 0; step < 8; ++step) {
    void *p = _mlir_memref_to_llvm_alloc(bytes);
    blocks.push_back(p);
    small.push_back(std::malloc(576));
    _mlir_memref_to_llvm_free(p);
  }
  check(std::count(blocks.begin() + 1, blocks.end(), blocks[1]) == 7,
        "a freed buffer is reused by the next step's allocation of the "
        "same size");
  for (void *p : small)
    std::free(p);
}

int main() {
  testAllocReused(); // first: on a heap that no test has grown yet
  runParallelTests();
  testJson();
  testHeapKeptMapped();
  testAllocAligned();
  testModelInfo();
  testBuildTarget();
  testInit();
  testMemrefCopy();
  testTensor();
  testJsonFormat();
  testNpz();
  testAtomicFiles();
  testPreprocessing();
  testStats();
  testBenchmarkData();
  testI64();
  testBenchmarkField();
  testDeviceUploads();
  runReaderTests();
  testProgress();
  testGunzip();
  return nnrt::test::summarize();
}
