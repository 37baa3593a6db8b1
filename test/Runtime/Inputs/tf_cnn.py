"""Checks a --mode=tf-cnn run against its own step times, computed here
independently of the runtime.

  tf_cnn.py figures RECORD.json OUTPUT.txt   the printed and recorded speeds
                                              follow from seconds_per_step
  tf_cnn.py same A.json B.json                both runs had the same losses
  tf_cnn.py differ A.json B.json              they did not
"""
import json
import math
import statistics
import sys


def close(a, b, what):
    if not math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9):
        sys.exit("%s: %r != %r" % (what, a, b))


def speeds(batch, seconds):
    """tf_cnn_benchmarks' mean, standard error and jitter of the speeds."""
    per_step = [batch / s for s in seconds]
    mean = batch / statistics.fmean(seconds)
    stderr = statistics.pstdev(per_step) / math.sqrt(len(per_step))
    center = statistics.median(per_step)
    jitter = 1.4826 * statistics.median(abs(v - center) for v in per_step)
    return mean, stderr, jitter


def figures(record_path, output_path):
    record = json.load(open(record_path))
    batch, seconds = record["batch_size"], record["seconds_per_step"]
    if len(seconds) != record["steps"]:
        sys.exit("%d step times for %d steps" % (len(seconds), record["steps"]))
    if len(record["step_losses"]) != record["steps"] + record["warmup"]:
        sys.exit("a loss for every step, warm-up included, is missing")
    mean, stderr, jitter = speeds(batch, seconds)
    close(record["images_per_second"], mean, "images_per_second")
    close(record["images_per_second_stderr"], stderr, "stderr")
    close(record["images_per_second_jitter"], jitter, "jitter")
    close(record["loss"], record["step_losses"][-1], "loss")
    total = len(seconds) * batch / record["total_seconds"]
    close(record["total_images_per_second"], total, "total images/sec")
    if total > mean * 1.0000001:
        sys.exit("the total counts more than the steps' time")
    # Every printed line: its step's figures over the steps so far.
    lines = [l for l in open(output_path) if "\timages/sec: " in l]
    if len(lines) != len(record["lines"]):
        sys.exit("%d lines printed, %d recorded" % (len(lines),
                                                    len(record["lines"])))
    for text, line in zip(lines, record["lines"]):
        step = line["step"]
        mean, stderr, jitter = speeds(batch, seconds[:step])
        close(line["images_per_second"], mean, "line %d mean" % step)
        close(line["stderr"], stderr, "line %d stderr" % step)
        close(line["jitter"], jitter, "line %d jitter" % step)
        printed = "%d\timages/sec: %.1f +/- %.1f (jitter = %.1f)\t%.3f\n" % (
            step, mean, stderr, jitter, line["loss"])
        if text != printed:
            sys.exit("printed %r, expected %r" % (text, printed))
    total_line = "total images/sec: %.2f\n" % record["total_images_per_second"]
    if total_line not in open(output_path).readlines():
        sys.exit("no line %r" % total_line)
    print("figures agree over %d steps and %d lines" % (len(seconds),
                                                         len(lines)))


def losses(path):
    return json.load(open(path))["step_losses"]


if sys.argv[1] == "figures":
    figures(sys.argv[2], sys.argv[3])
elif sys.argv[1] == "same":
    if losses(sys.argv[2]) != losses(sys.argv[3]):
        sys.exit("the losses differ")
    print("same losses")
else:
    if losses(sys.argv[2]) == losses(sys.argv[3]):
        sys.exit("the losses are the same")
    print("different losses")
