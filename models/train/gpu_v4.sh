#!/bin/bash
# Issue 22: candidates for the copy model's next version (train.py, from the committed v3) on one lent GPU
# machine, six at once: 64, 96 and 128 px inputs, views composed on the CPU (as here) or on the GPU itself,
# each trained UNTIL minutes on the clock (the speed there is not known ahead; each report gives its steps,
# and `--steps N` with the same arguments repeats the run on the CPU). Packs each run's checkpoint, ONNX,
# report and log into $OUT/<variant>.tar.
#
# The prepared data travels gzipped (var/ is not part of the tree): in the repo root, after
#   npx tsx models/train/prepare.ts
#   mkdir -p .trainpack && for f in icons texts; do gzip -6 -c var/logo-train/$f.u8 > .trainpack/$f.u8.gz; done
#   cp var/logo-train/meta.json .trainpack/
# run `bash models/train/gpu_v4.sh [UNTIL=7.5]` there with .trainpack carried.
set -u
UNTIL=${1:-7.5}
. "$(dirname "$0")/gpu_lib.sh"
gpu_prepare

# What every candidate shares: v3's start and its harder cuts (crop 30 % is the kind still short of its target).
COMMON="--init-onnx models/nishaan-logo-cnn-v3.onnx --device cuda --minutes $UNTIL --eval-every 60 --cut 0.5 --cut-max 0.45 --beside 0.2"
LIMIT=$(awk "BEGIN{print int($UNTIL * 60 + 100)}")
VARIANTS=(
  "s64-cpu:--threads 4 --lr 0.0005"
  "s96-cpu:--threads 4 --lr 0.001 --size 96 --canvas 144"
  "s64-dev:--threads 2 --views-on device --lr 0.0005"
  "s96-dev:--threads 2 --views-on device --lr 0.001 --size 96 --canvas 144"
  "s96-dev-b256:--threads 2 --views-on device --lr 0.002 --batch 256 --size 96 --canvas 144"
  "s128-dev:--threads 2 --views-on device --lr 0.001 --size 128 --canvas 192"
)
# The last state beside the kept one would take a tar over the 16 MB a file may bring back.
DROP='NAME-last.*' gpu_train "$LIMIT" models/train/train.py "$COMMON" 'val recall|kept|wrote|failed|Error|error|not finite' \
  "${VARIANTS[@]}"
