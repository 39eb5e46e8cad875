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
OUT=${OUT:-/tmp/out}
mkdir -p var/logo-train "$OUT"
for f in .trainpack/*.u8.gz; do gunzip -c "$f" > "var/logo-train/$(basename "$f" .gz)" & done
wait
cp .trainpack/meta.json var/logo-train/
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$OUT/summary.txt"
python3 -c 'import torch; print("torch", torch.__version__, torch.cuda.get_device_name(0))' | tee -a "$OUT/summary.txt"
nproc | tee -a "$OUT/summary.txt"

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
export PYTHONUNBUFFERED=1
pids=()
for v in "${VARIANTS[@]}"; do
  name=${v%%:*}
  mkdir -p "/tmp/runs/$name"
  # shellcheck disable=SC2086
  timeout "$LIMIT" python3 models/train/train.py $COMMON ${v#*:} --out "/tmp/runs/$name" --name "$name" \
    > "/tmp/runs/$name/train.log" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
for v in "${VARIANTS[@]}"; do
  name=${v%%:*}
  echo "== $name: ${v#*:}" >> "$OUT/summary.txt"
  grep -E 'val recall|kept|wrote|failed|Error|error|not finite' "/tmp/runs/$name/train.log" >> "$OUT/summary.txt"
  grep -E '^step' "/tmp/runs/$name/train.log" | tail -1 >> "$OUT/summary.txt"
  tail -3 "/tmp/runs/$name/train.log" >> "$OUT/summary.txt"
  # The last state beside the kept one would take a tar over the 16 MB a file may bring back.
  rm -f "/tmp/runs/$name/$name-last".*
  tar -cf "$OUT/$name.tar" -C /tmp/runs "$name"
done
cat "$OUT/summary.txt"
