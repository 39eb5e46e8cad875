# Sourced by gpu_variants.sh and gpu_v4.sh, run on a lent GPU machine in the repo root with .trainpack carried.

# The prepared data unpacked into var/logo-train, and $OUT/summary.txt started with the machine.
gpu_prepare() {
  OUT=${OUT:-/tmp/out}
  mkdir -p var/logo-train "$OUT"
  for f in .trainpack/*.u8.gz; do gunzip -c "$f" > "var/logo-train/$(basename "$f" .gz)" & done
  wait
  cp .trainpack/meta.json var/logo-train/
  nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$OUT/summary.txt"
  python3 -c 'import torch; print("torch", torch.__version__, torch.cuda.get_device_name(0))' | tee -a "$OUT/summary.txt"
  nproc | tee -a "$OUT/summary.txt"
}

# gpu_train LIMIT SCRIPT COMMON PATTERN VARIANT...: each variant ("name:arguments") one process of SCRIPT with the
# COMMON arguments and its own, all at once, each stopped after LIMIT seconds; then per variant the lines of its log
# that match PATTERN and its last two go to the summary, and its folder to $OUT/<name>.tar, less the files DROP names
# (a glob, NAME standing for the variant's name): a file over 16 MB does not come back.
gpu_train() {
  local limit=$1 script=$2 common=$3 pattern=$4 v name p
  shift 4
  export PYTHONUNBUFFERED=1
  local pids=()
  for v in "$@"; do
    name=${v%%:*}
    mkdir -p "/tmp/runs/$name"
    # shellcheck disable=SC2086
    timeout "$limit" python3 "$script" $common ${v#*:} --out "/tmp/runs/$name" --name "$name" \
      > "/tmp/runs/$name/train.log" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  for v in "$@"; do
    name=${v%%:*}
    echo "== $name: ${v#*:}" >> "$OUT/summary.txt"
    grep -E "$pattern" "/tmp/runs/$name/train.log" >> "$OUT/summary.txt"
    tail -2 "/tmp/runs/$name/train.log" >> "$OUT/summary.txt"
    # shellcheck disable=SC2086
    (cd "/tmp/runs/$name" && rm -f ${DROP//NAME/$name})
    tar -cf "$OUT/$name.tar" -C /tmp/runs "$name"
  done
  cat "$OUT/summary.txt"
}
