#!/bin/bash
# Issue 22 item 2: trains several variants of the concept model at once on one GPU machine (16 cores), each
# its own process (the views are composed on the CPU, --threads of them per process; the network runs on the
# GPU), and packs each variant's checkpoint, ONNX, report and log into $OUT/<variant>.tar.
#
# The prepared data travels gzipped (var/ is not part of the tree): in the repo root, after
#   npx tsx models/train/prepare.ts
#   mkdir -p .trainpack && for f in var/logo-train/*.u8; do gzip -6 -c $f > .trainpack/$(basename $f).gz; done
#   cp var/logo-train/meta.json .trainpack/
# run this there with .trainpack carried.
#   bash models/train/gpu_variants.sh explore [UNTIL=6]: six recipes, each trained UNTIL minutes on the clock
#     (--until: the speed there was not known ahead); each report gives the steps it made.
#   bash models/train/gpu_variants.sh seeds [STEPS=1800]: the recipes that led, a fixed number of steps (as on
#     the CPU), over seeds, to tell a recipe's gain from a seed's.
set -u
MODE=${1:-explore}
THREADS=2
. "$(dirname "$0")/gpu_lib.sh"
gpu_prepare

# name: arguments beyond the common ones (v2's run: --size 64 --concept-share 0.5 --concept-proxy 1)
if [ "$MODE" = explore ]; then
  UNTIL=${2:-6}
  COMMON="--steps 1000000 --until $UNTIL"
  LIMIT=$(awk "BEGIN{print int($UNTIL * 60 + 120)}")
  VARIANTS=(
    "s64-c50:--concept-share 0.5"
    "s64-c75:--concept-share 0.75"
    "s64-c75-np:--concept-share 0.75 --concept-proxy 0"
    "s96-c75:--concept-share 0.75 --size 96 --canvas 144"
    "s96-c75-np:--concept-share 0.75 --concept-proxy 0 --size 96 --canvas 144"
    "s64-c75-b128:--concept-share 0.75 --batch 128"
  )
else
  # --minutes only guards the lease: a run it stops says so in its report.
  COMMON="--steps ${2:-1800} --minutes 3.8"
  LIMIT=300
  VARIANTS=(
    "c50-seed1:--concept-share 0.5 --seed 1"
    "c50-seed2:--concept-share 0.5 --seed 2"
    "c50-seed3:--concept-share 0.5 --seed 3"
    "c75-seed1:--concept-share 0.75 --seed 1"
    "c75-seed2:--concept-share 0.75 --seed 2"
    "c75np-seed1:--concept-share 0.75 --concept-proxy 0 --seed 1"
  )
fi
# The .npz holds the same weights as the .pt.
DROP='NAME.pt' gpu_train "$LIMIT" models/train/train_concepts.py "--device cuda --threads $THREADS $COMMON --eval-every 500" \
  'val copy|stopped|wrote|Error|error' "${VARIANTS[@]}"
