"""Checks that a training run's loss fell: the mean of its last five steps
is below the mean of its first five."""
import json
import sys

losses = json.load(open(sys.argv[1]))["step_losses"]
first, last = sum(losses[:5]) / 5, sum(losses[-5:]) / 5
print("first %.4f, last %.4f" % (first, last))
if last < first:
    print("the loss fell")
else:
    sys.exit("the loss did not fall")
