//===- Data.h - benchmark data: synthetic and CIFAR-10 ----------*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt). Fills a model's input and label tensors,
// either with random data as the TensorFlow benchmarks do or from the
// CIFAR-10 binary files, preprocessed as the reference models expect.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_DATA_H
#define NNRT_DATA_H

#include "nnrt/Tensor.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace nnrt {

/// Synthetic data: inputs drawn from N(0, 0.1) (TensorFlow's AlexNet
/// benchmark), labels uniform over [0, classes).
void fillSynthetic(Tensor &t, int64_t classes, std::mt19937_64 &rng);

/// tf_cnn_benchmarks' synthetic images: a normal with mean 127 and stddev
/// 60, values beyond two standard deviations redrawn (tf.truncated_normal).
void fillBenchmarkImages(Tensor &t, std::mt19937_64 &rng);

/// Labels (i32 or i64) uniform over [0, classes).
void fillLabels(Tensor &t, int64_t classes, std::mt19937_64 &rng);

/// Labelled images as stored: CIFAR-10's 32x32x3 bytes channel-major, or
/// MNIST's 28x28 grey bytes.
struct ImageSet {
  int64_t side = 32, channels = 3, classes = 10;
  bool channelMajor = true;
  std::vector<uint8_t> pixels; // count * pixelsPerImage()
  std::vector<int32_t> labels; // count
  int64_t count() const { return static_cast<int64_t>(labels.size()); }
  int64_t pixelsPerImage() const { return side * side * channels; }
};

/// Reads the CIFAR-10 binary files of `dir`: the training set
/// (data_batch_1.bin ... data_batch_5.bin, those present, at least one) or
/// the test set (test_batch.bin), each maybe gzipped (FILE.gz); else from
/// the downloaded cifar-10-binary.tar.gz, `dir` itself or in it. Each record
/// is a label byte (0..9) and 3072 pixel bytes; a file whose size is not a
/// whole number of records, or a label out of range, is an error naming
/// the file and record. `absent`, if given, tells a failure because there
/// are no such files from one reading them.
bool readCifar10(const std::string &dir, bool train, ImageSet &out,
                 std::string &error, bool *absent = nullptr);

/// Reads MNIST's IDX files in `dir` (each FILE, or FILE.gz):
/// t10k-images-idx3-ubyte and t10k-labels-idx1-ubyte, or
/// train-images-idx3-ubyte and train-labels-idx1-ubyte when `train` and
/// present. Magic numbers, sizes and labels are checked.
bool readMnist(const std::string &dir, bool train, ImageSet &out,
               std::string &error);

/// The in-memory readers under readCifar10 and readMnist, given the bytes
/// of the files as stored (each maybe gzip-compressed) and their names for
/// messages; they check everything they read. parseCifar10 appends the
/// records of one batch file to `out`; parseCifar10Archive those of the
/// training or test batches of a tar archive (cifar-10-binary.tar.gz).
bool parseCifar10(const std::string &bytes, const std::string &name,
                  ImageSet &out, std::string &error);
bool parseCifar10Archive(const std::string &bytes, const std::string &name,
                         bool train, ImageSet &out, std::string &error,
                         bool *absent = nullptr);
bool parseMnist(const std::string &images, const std::string &imagesName,
                const std::string &labels, const std::string &labelsName,
                ImageSet &out, std::string &error);

/// Splits off the images from `first` on into `tail` (the held-out part).
void splitImages(ImageSet &set, int64_t first, ImageSet &tail);

/// How images become model inputs, chosen from the input's shape:
/// - [N, S, S, C] NHWC or [N, S*S*C] for images of side S with C channels:
///   pixels scaled to [0, 1] (Keras);
/// - [N, H, W, 3] with H, W < 32: a HxW crop, then per-image
///   standardisation (TensorFlow's CIFAR-10 tutorial). The crop is central,
///   or with `augment` random, randomly flipped left-right and with random
///   brightness (+-63) and contrast (0.2..1.8), as the tutorial trains.
struct Preprocessing {
  enum Kind { Scale, CropStandardize } kind = Scale;
  int64_t height = 32, width = 32;
  bool flat = false;
};

/// The preprocessing of `set`'s images for an input of this shape, or
/// false with a message.
bool choosePreprocessing(const ImageSet &set, const Shape &input,
                         Preprocessing &out, std::string &error);

/// Fills `images` (and `labels`, if not null) with the set's images
/// `order[first]`, `order[first + 1]`, ... (wrapping around).
void fillBatch(const ImageSet &set, const std::vector<int64_t> &order,
               int64_t first, const Preprocessing &prep, bool augment,
               std::mt19937_64 &rng, Tensor &images, Tensor *labels);

} // namespace nnrt

#endif // NNRT_DATA_H
