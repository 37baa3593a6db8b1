//===- Data.cpp - benchmark data: synthetic and CIFAR-10 ------------------===//
//
// Part of nnc's runtime (libnnrt).
//
//===----------------------------------------------------------------------===//

#include "nnrt/Data.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>

using namespace nnrt;

void nnrt::fillSynthetic(Tensor &t, int64_t classes, std::mt19937_64 &rng) {
  if (t.type() == DType::I32) {
    std::uniform_int_distribution<int32_t> label(
        0, static_cast<int32_t>(std::max<int64_t>(classes, 1) - 1));
    for (int64_t i = 0; i < t.size(); ++i)
      t.i32()[i] = label(rng);
    return;
  }
  std::normal_distribution<float> normal(0.0f, 0.1f);
  for (int64_t i = 0; i < t.size(); ++i)
    t.f32()[i] = normal(rng);
}

static bool readFile(const std::string &path, ImageSet &out,
                     std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read '" + path + "': " + std::strerror(errno);
    return false;
  }
  std::string bytes((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  constexpr int64_t kRecord = 1 + ImageSet::kPixels;
  int64_t size = static_cast<int64_t>(bytes.size());
  if (size == 0 || size % kRecord != 0) {
    error = "'" + path + "' is not in the CIFAR-10 binary format: its " +
            std::to_string(size) + " bytes are not a whole number of " +
            std::to_string(kRecord) + "-byte records (a label byte and " +
            "32x32x3 pixels)";
    return false;
  }
  for (int64_t r = 0; r < size / kRecord; ++r) {
    auto *record =
        reinterpret_cast<const uint8_t *>(bytes.data()) + r * kRecord;
    if (record[0] >= ImageSet::kClasses) {
      error = "'" + path + "': record " + std::to_string(r) + " has label " +
              std::to_string(record[0]) + "; CIFAR-10 labels are 0..9";
      return false;
    }
    out.labels.push_back(record[0]);
    out.pixels.insert(out.pixels.end(), record + 1, record + kRecord);
  }
  return true;
}

bool nnrt::readCifar10(const std::string &dir, bool train, ImageSet &out,
                       std::string &error) {
  out = ImageSet();
  std::vector<std::string> names;
  if (train)
    for (int i = 1; i <= 5; ++i)
      names.push_back("data_batch_" + std::to_string(i) + ".bin");
  else
    names.push_back("test_batch.bin");
  int found = 0;
  for (const std::string &name : names) {
    std::string path = dir + "/" + name;
    if (!std::ifstream(path).good())
      continue;
    ++found;
    if (!readFile(path, out, error))
      return false;
  }
  if (!found) {
    error =
        "no CIFAR-10 " + std::string(train ? "training" : "test") +
        " files in '" + dir + "' (expected " +
        (train ? "data_batch_1.bin ... data_batch_5.bin" : "test_batch.bin") +
        ")";
    return false;
  }
  return true;
}

bool nnrt::choosePreprocessing(const Shape &input, Preprocessing &out,
                               std::string &error) {
  out = Preprocessing();
  if (input.size() == 2 && input[1] == ImageSet::kPixels) {
    out.flat = true;
    return true;
  }
  if (input.size() == 4 && input[3] == ImageSet::kChannels &&
      input[1] <= ImageSet::kSide && input[2] <= ImageSet::kSide) {
    out.height = input[1];
    out.width = input[2];
    if (out.height < ImageSet::kSide || out.width < ImageSet::kSide)
      out.kind = Preprocessing::CropStandardize;
    return true;
  }
  error = "CIFAR-10 images are 32x32x3; the model's input " +
          formatShape(input) +
          " takes neither them ([N, 32, 32, 3] or [N, 3072]) nor a crop of "
          "them ([N, H, W, 3], H and W at most 32)";
  return false;
}

/// One image into `out` (H*W*3 floats, HWC).
static void prepareImage(const uint8_t *pixels, const Preprocessing &prep,
                         bool augment, std::mt19937_64 &rng, float *out) {
  const int64_t side = ImageSet::kSide, channels = ImageSet::kChannels;
  int64_t h = prep.height, w = prep.width;
  int64_t top = (side - h) / 2, left = (side - w) / 2;
  bool flip = false;
  float brightness = 0, contrast = 1;
  if (augment && prep.kind == Preprocessing::CropStandardize) {
    top = std::uniform_int_distribution<int64_t>(0, side - h)(rng);
    left = std::uniform_int_distribution<int64_t>(0, side - w)(rng);
    flip = std::bernoulli_distribution(0.5)(rng);
    brightness = std::uniform_real_distribution<float>(-63, 63)(rng);
    contrast = std::uniform_real_distribution<float>(0.2f, 1.8f)(rng);
  }
  for (int64_t y = 0; y < h; ++y)
    for (int64_t x = 0; x < w; ++x)
      for (int64_t c = 0; c < channels; ++c) {
        int64_t sx = left + (flip ? w - 1 - x : x);
        out[(y * w + x) * channels + c] =
            pixels[c * side * side + (top + y) * side + sx];
      }
  int64_t n = h * w * channels;
  if (prep.kind == Preprocessing::Scale) {
    for (int64_t i = 0; i < n; ++i)
      out[i] /= 255.0f;
    return;
  }
  if (augment) {
    // Brightness, then contrast around each channel's mean.
    for (int64_t i = 0; i < n; ++i)
      out[i] += brightness;
    for (int64_t c = 0; c < channels; ++c) {
      double mean = 0;
      for (int64_t i = c; i < n; i += channels)
        mean += out[i];
      mean /= h * w;
      for (int64_t i = c; i < n; i += channels)
        out[i] = static_cast<float>((out[i] - mean) * contrast + mean);
    }
  }
  // Per-image standardisation: zero mean, unit variance, the stddev floored
  // at 1/sqrt(n) so a flat image does not divide by zero.
  double sum = 0, sumSq = 0;
  for (int64_t i = 0; i < n; ++i)
    sum += out[i], sumSq += double(out[i]) * out[i];
  double mean = sum / n;
  double stddev = std::sqrt(std::max(sumSq / n - mean * mean, 0.0));
  double scale = 1.0 / std::max(stddev, 1.0 / std::sqrt(double(n)));
  for (int64_t i = 0; i < n; ++i)
    out[i] = static_cast<float>((out[i] - mean) * scale);
}

void nnrt::fillBatch(const ImageSet &set, const std::vector<int64_t> &order,
                     int64_t first, const Preprocessing &prep, bool augment,
                     std::mt19937_64 &rng, Tensor &images, Tensor *labels) {
  int64_t batch = images.shape()[0];
  int64_t stride = images.size() / batch;
  for (int64_t b = 0; b < batch; ++b) {
    int64_t index = order[(first + b) % order.size()];
    prepareImage(&set.pixels[index * ImageSet::kPixels], prep, augment, rng,
                 images.f32() + b * stride);
    if (labels)
      labels->i32()[b] = set.labels[index];
  }
}
