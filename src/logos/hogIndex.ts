// What concept search finds its HOG candidates by (docs/logos.md, "The HOG index"): not the 900-number HOG vectors
// themselves, whose HNSW index is slow to build (37-74 minutes at 1M logos on two cores) and to keep (every logo indexed
// pays for an insert into it), but a 256-number projection of each, indexed in its place: a fixed random ±1 matrix, the
// same for every logo and query, which keeps cosines near what they were (Johnson-Lindenstrauss). Not centred: HOG
// vectors share a large common direction, and taking it out made the candidates worse (of 300 queries' 10 nearest by
// the full vectors among 5,000 icons, 97.9 % were among the projection's nearest 80 at 256 numbers, 92.5 % at 128,
// 93.1 % centred). The candidates are scored with the full HOG vectors, read by key, as before; only which logos are
// candidates can differ from the full index's (bench/logos.ts --part concept-search measures how much).

export const HOG_INDEX_DIMS = 256;
const SEED = 20261207;

/** The projection's model name in logo_vectors, beside the HOG vectors it is made from. */
export const hogIndexModel = (hog: string) => `${hog}-p${HOG_INDEX_DIMS}`;

let matrix: Int8Array | null = null;
let width = 0;

/** The ±1 matrix for HOG vectors of `dims` numbers, drawn once from a fixed seed (xorshift32). */
function signs(dims: number): Int8Array {
  if (matrix && width === dims) return matrix;
  let s = SEED;
  const m = new Int8Array(HOG_INDEX_DIMS * dims);
  for (let i = 0; i < m.length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    m[i] = s & 1 ? 1 : -1;
  }
  matrix = m;
  width = dims;
  return m;
}

/** A HOG vector's projection, unit length (all zeros for a vector of zeros, which is never stored). */
export function projectHog(v: ArrayLike<number>): number[] {
  const m = signs(v.length);
  const out = new Array<number>(HOG_INDEX_DIMS).fill(0);
  for (let r = 0, k = 0; r < HOG_INDEX_DIMS; r++) {
    let s = 0;
    for (let c = 0; c < v.length; c++, k++) s += m[k] * v[c];
    out[r] = s;
  }
  const n = Math.hypot(...out);
  return n > 0 ? out.map((x) => x / n) : out;
}
