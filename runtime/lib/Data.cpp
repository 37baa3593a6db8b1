//===- Data.cpp - benchmark data: synthetic and CIFAR-10 ------------------===//
//
// Part of nnc's runtime (libnnrt).
//
//===----------------------------------------------------------------------===//

#include "nnrt/Data.h"

#include "nnrt/Archive.h"
#include "nnrt/File.h"
#include "nnrt/Init.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sys/stat.h>

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

void nnrt::fillBenchmarkImages(Tensor &t, std::mt19937_64 &rng) {
  Initializer init;
  init.kind = "truncated_normal";
  init.mean = 127;
  init.stddev = 60;
  initialize(init, t.shape(), t.f32(), rng);
}

void nnrt::fillLabels(Tensor &t, int64_t classes, std::mt19937_64 &rng) {
  std::uniform_int_distribution<int64_t> label(
      0, std::max<int64_t>(classes, 1) - 1);
  for (int64_t i = 0; i < t.size(); ++i) {
    int64_t v = label(rng);
    if (t.type() == DType::I64)
      t.i64()[i] = v;
    else
      t.i32()[i] = static_cast<int32_t>(v);
  }
}

/// CIFAR-10 records (a label byte and 3072 pixel bytes), inflated, into
/// `out`.
static bool parseCifar10Records(const std::string &path,
                                const std::string &bytes, ImageSet &out,
                                std::string &error) {
  const int64_t kRecord = 1 + out.pixelsPerImage();
  int64_t size = static_cast<int64_t>(bytes.size());
  if (size == 0 || size % kRecord != 0) {
    error = "'" + path + "' is not in the CIFAR-10 binary format: its " +
            std::to_string(size) + " bytes are not a whole number of " +
            std::to_string(kRecord) + "-byte records (a label byte and " +
            "32x32x3 pixels)";
    return false;
  }
  out.labels.reserve(out.labels.size() + size / kRecord);
  out.pixels.reserve(out.pixels.size() + size / kRecord * (kRecord - 1));
  for (int64_t r = 0; r < size / kRecord; ++r) {
    auto *record =
        reinterpret_cast<const uint8_t *>(bytes.data()) + r * kRecord;
    if (record[0] >= out.classes) {
      error = "'" + path + "': record " + std::to_string(r) + " has label " +
              std::to_string(record[0]) + "; CIFAR-10 labels are 0..9";
      return false;
    }
    out.labels.push_back(record[0]);
    out.pixels.insert(out.pixels.end(), record + 1, record + kRecord);
  }
  return true;
}

bool nnrt::parseCifar10(const std::string &bytes, const std::string &name,
                        ImageSet &out, std::string &error) {
  std::string records;
  return inflateIfGzip(bytes, name, records, error) &&
         parseCifar10Records(name, records, out, error);
}

/// `path`, or `path.gz` when only that exists; empty when neither does.
static std::string findFile(const std::string &path) {
  if (fileExists(path))
    return path;
  if (fileExists(path + ".gz"))
    return path + ".gz";
  return "";
}

static bool endsWith(const std::string &s, const std::string &tail) {
  return s.size() >= tail.size() &&
         s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// The batches of the CIFAR-10 training set, or of its test set.
static std::vector<std::string> cifar10Names(bool train) {
  std::vector<std::string> names;
  if (train)
    for (int i = 1; i <= 5; ++i)
      names.push_back("data_batch_" + std::to_string(i) + ".bin");
  else
    names.push_back("test_batch.bin");
  return names;
}

bool nnrt::parseCifar10Archive(const std::string &bytes,
                               const std::string &name, bool train,
                               ImageSet &out, std::string &error,
                               bool *absent) {
  std::vector<std::string> names = cifar10Names(train);
  std::string tar;
  std::vector<std::pair<std::string, std::string>> files;
  if (!inflateIfGzip(bytes, name, tar, error) ||
      !readTar(tar, name, files, error))
    return false;
  // cifar-10-binary.tar.gz keeps the batches in cifar-10-batches-bin/.
  int found = 0;
  for (const std::string &batch : names)
    for (const auto &[member, contents] : files)
      if (member == batch || endsWith(member, "/" + batch)) {
        ++found;
        if (!parseCifar10Records(name + ":" + member, contents, out, error))
          return false;
        break;
      }
  if (found)
    return true;
  error = "'" + name + "' holds no " + names.front() +
          " (is it CIFAR-10's binary version, cifar-10-binary.tar.gz?)";
  if (absent)
    *absent = true;
  return false;
}

/// parseCifar10Archive on the file `path`.
static bool readCifar10Archive(const std::string &path, bool train,
                               ImageSet &out, std::string &error,
                               bool *absent) {
  std::string bytes;
  return readFile(path, bytes, error) &&
         parseCifar10Archive(bytes, path, train, out, error, absent);
}

/// Why `dir` has no CIFAR-10 files, with the way to the ones nearby.
static std::string cifar10Missing(const std::string &dir, bool train) {
  std::string error =
      "no CIFAR-10 " + std::string(train ? "training" : "test") +
      " files in '" + dir + "' (expected " +
      (train ? "data_batch_1.bin ... data_batch_5.bin" : "test_batch.bin") +
      ")";
  struct stat info;
  std::string inner = dir + "/cifar-10-batches-bin";
  if (stat(inner.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
    error += "; they are in '" + inner + "': use --data=cifar10:" + inner;
  else if (fileExists(dir + "/cifar-10-python.tar.gz"))
    error += "; '" + dir +
             "/cifar-10-python.tar.gz' is the Python version: the bench reads "
             "the binary version, cifar-10-binary.tar.gz";
  return error;
}

bool nnrt::readCifar10(const std::string &dir, bool train, ImageSet &out,
                       std::string &error, bool *absent) {
  out = ImageSet();
  if (absent)
    *absent = false;
  // The downloaded archive, given itself or lying in the directory.
  if (fileExists(dir))
    return readCifar10Archive(dir, train, out, error, absent);
  int found = 0;
  for (const std::string &name : cifar10Names(train)) {
    std::string path = findFile(dir + "/" + name), bytes;
    if (path.empty())
      continue;
    ++found;
    if (!readFile(path, bytes, error) || !parseCifar10(bytes, path, out, error))
      return false;
  }
  if (found)
    return true;
  std::string archive = dir + "/cifar-10-binary.tar.gz";
  if (fileExists(archive))
    return readCifar10Archive(archive, train, out, error, absent);
  error = cifar10Missing(dir, train);
  if (absent)
    *absent = true;
  return false;
}

bool nnrt::choosePreprocessing(const ImageSet &set, const Shape &input,
                               Preprocessing &out, std::string &error) {
  out = Preprocessing();
  out.height = out.width = set.side;
  if (input.size() == 2 && input[1] == set.pixelsPerImage()) {
    out.flat = true;
    return true;
  }
  if (input.size() == 4 && input[3] == set.channels && input[1] <= set.side &&
      input[2] <= set.side) {
    out.height = input[1];
    out.width = input[2];
    if (out.height < set.side || out.width < set.side)
      out.kind = Preprocessing::CropStandardize;
    return true;
  }
  std::string s = std::to_string(set.side), c = std::to_string(set.channels);
  error = "the data's images are " + s + "x" + s + "x" + c +
          "; the model's input " + formatShape(input) +
          " takes neither them ([N, " + s + ", " + s + ", " + c + "] or [N, " +
          std::to_string(set.pixelsPerImage()) +
          "]) nor a crop of them ([N, H, W, " + c + "], H and W at most " + s +
          ")";
  return false;
}

static uint32_t bigEndian(const std::string &b, size_t at) {
  auto u = [&](size_t i) { return uint32_t(uint8_t(b[at + i])); };
  return u(0) << 24 | u(1) << 16 | u(2) << 8 | u(3);
}

bool nnrt::parseMnist(const std::string &imageBytes,
                      const std::string &imagesName,
                      const std::string &labelBytes,
                      const std::string &labelsName, ImageSet &out,
                      std::string &error) {
  out = ImageSet();
  out.side = 28;
  out.channels = 1;
  out.channelMajor = false;
  std::string images, labels;
  if (!inflateIfGzip(imageBytes, imagesName, images, error) ||
      !inflateIfGzip(labelBytes, labelsName, labels, error))
    return false;
  if (images.size() < 16 || bigEndian(images, 0) != 0x803 ||
      bigEndian(images, 8) != 28 || bigEndian(images, 12) != 28) {
    error = "'" + imagesName + "' is not an IDX file of 28x28 images";
    return false;
  }
  if (labels.size() < 8 || bigEndian(labels, 0) != 0x801) {
    error = "'" + labelsName + "' is not an IDX label file";
    return false;
  }
  int64_t n = bigEndian(images, 4);
  if (int64_t(bigEndian(labels, 4)) != n ||
      int64_t(images.size()) != 16 + n * 784 ||
      int64_t(labels.size()) != 8 + n) {
    error = "'" + imagesName + "' and '" + labelsName +
            "' disagree on the number of images or are truncated";
    return false;
  }
  out.labels.reserve(n);
  for (int64_t i = 0; i < n; ++i) {
    uint8_t label = labels[8 + i];
    if (label >= out.classes) {
      error = "'" + labelsName + "': label " + std::to_string(i) + " is " +
              std::to_string(label) + "; MNIST labels are 0..9";
      return false;
    }
    out.labels.push_back(label);
  }
  out.pixels.assign(images.begin() + 16, images.end());
  return true;
}

bool nnrt::readMnist(const std::string &dir, bool train, ImageSet &out,
                     std::string &error) {
  out = ImageSet();
  std::string prefix = dir + "/" + (train ? "train" : "t10k");
  if (train && findFile(prefix + "-images-idx3-ubyte").empty())
    prefix = dir + "/t10k";
  std::string imagesPath = prefix + "-images-idx3-ubyte";
  std::string labelsPath = prefix + "-labels-idx1-ubyte";
  for (std::string *path : {&imagesPath, &labelsPath}) {
    std::string found = findFile(*path);
    if (found.empty()) {
      error = "no MNIST file '" + *path + "' (nor '" + *path + ".gz')";
      return false;
    }
    *path = found;
  }
  std::string images, labels;
  return readFile(imagesPath, images, error) &&
         readFile(labelsPath, labels, error) &&
         parseMnist(images, imagesPath, labels, labelsPath, out, error);
}

void nnrt::splitImages(ImageSet &set, int64_t first, ImageSet &tail) {
  tail = set;
  first = std::min(first, set.count());
  tail.labels.assign(set.labels.begin() + first, set.labels.end());
  tail.pixels.assign(set.pixels.begin() + first * set.pixelsPerImage(),
                     set.pixels.end());
  set.labels.resize(first);
  set.pixels.resize(first * set.pixelsPerImage());
}

/// One image into `out` (H*W*3 floats, HWC).
static void prepareImage(const ImageSet &set, const uint8_t *pixels,
                         const Preprocessing &prep, bool augment,
                         std::mt19937_64 &rng, float *out) {
  const int64_t side = set.side, channels = set.channels;
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
        int64_t at = set.channelMajor ? c * side * side + (top + y) * side + sx
                                      : ((top + y) * side + sx) * channels + c;
        out[(y * w + x) * channels + c] = pixels[at];
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
    prepareImage(set, &set.pixels[index * set.pixelsPerImage()], prep, augment,
                 rng, images.f32() + b * stride);
    if (labels)
      labels->i32()[b] = set.labels[index];
  }
}
