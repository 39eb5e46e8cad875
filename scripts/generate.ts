// Synthetic registry generator CLI: writes a baseline and a delta file set (docs/ingest.md).
//   tsx scripts/generate.ts --records N --seed S --out DIR [--logos K] [--delta-size D] [--threads T] [--data DIR]
import { parseArgs } from 'node:util';
import { DEFAULT_LOGOS, generate, MAX_RECORDS } from '../src/ingest/generator/index.ts';
import { defaultDeltaSize } from '../src/ingest/generator/plan.ts';

const USAGE = `usage: tsx scripts/generate.ts --records N --seed S --out DIR [--logos K] [--delta-size D] [--threads T] [--data DIR]

  --records N      trade marks in the baseline (1..${MAX_RECORDS})
  --seed S         integer seed; the same N and S give byte-identical output
  --out DIR        writes DIR/baseline and DIR/delta (both replaced)
  --logos K        marks with a logo image (default ${DEFAULT_LOGOS}, capped at device/composite marks)
  --delta-size D   baseline marks changed in the delta (default max(50, N/2000); at least 3 per change kind)
  --threads T      worker threads for the baseline (default: 2 from 200000 records, else 0)
  --data DIR       reference data directory (default data/reference)`;

function fail(message: string): never {
  console.error(`generate: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function int(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) fail(`--${name} must be a whole number, got "${value}"`);
  const v = Number(value);
  if (v < min || v > max) fail(`--${name} must be between ${min} and ${max}, got ${v}`);
  return v;
}

async function main(): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        records: { type: 'string' },
        seed: { type: 'string' },
        out: { type: 'string' },
        logos: { type: 'string' },
        'delta-size': { type: 'string' },
        threads: { type: 'string' },
        data: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const records = int('records', values.records as string | undefined, 1, MAX_RECORDS);
  const seed = int('seed', values.seed as string | undefined, 0, 0xffffffff);
  const out = values.out as string | undefined;
  if (records === undefined) fail('--records is required');
  if (seed === undefined) fail('--seed is required');
  if (!out) fail('--out is required');

  const t0 = Date.now();
  const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
  const summary = await generate({
    records,
    seed,
    out,
    logos: int('logos', values.logos as string | undefined, 0, MAX_RECORDS),
    deltaSize: int('delta-size', values['delta-size'] as string | undefined, 1, MAX_RECORDS) ?? defaultDeltaSize(records),
    threads: int('threads', values.threads as string | undefined, 0, 64),
    dataDir: values.data as string | undefined,
    progress: (m) => console.error(`[${elapsed()}] ${m}`),
  });
  for (const set of [summary.baseline, summary.delta]) {
    const counts = Object.entries(set.counts)
      .filter(([, c]) => c > 0)
      .map(([e, c]) => `${e}=${c}`)
      .join(' ');
    console.error(`[${elapsed()}] ${set.dir}: ${(set.bytes / 1e6).toFixed(1)} MB JSONL; ${counts}`);
  }
}

main().catch((err) => {
  console.error(`generate: ${(err as Error).stack ?? err}`);
  process.exit(1);
});
