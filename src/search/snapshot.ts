import fs from 'node:fs';
import path from 'node:path';
import { map as mapFile } from '@nishaan/mmap';
import { LiveIndex } from './liveIndex.ts';
import { MarkIndex } from './markIndex.ts';
import { packReady, READY_ARRAYS } from './readyData.ts';
import { TextList } from './textList.ts';
import type { MarkData, ReadyData } from './types.ts';
import { Vocabulary, type VocabularyData } from './vocabulary.ts';

// The index on disk, so a process starts from it in seconds instead of rebuilding from PostgreSQL:
// a header (JSON) naming each array's type, offset and length, then the arrays' bytes, 8-aligned.
// Loading maps them straight back as typed arrays over the file's buffer. Written to a temporary
// name and renamed, so a reader never sees half a file.
//
// The buffer is the file itself, mapped (native/mmap), where it can be: the kernel then keeps one copy of
// its pages in its page cache for every process of the machine that loads the same file (the API
// processes, the batch clearance processes), where reading it gave each process a copy of its own.
// docs/architecture.md, "One index per machine", says why this and not threads.

const MAGIC = 'NSHIDX10';
type Typed = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;
const TYPES = { Uint8Array, Uint16Array, Uint32Array, Int32Array, Float64Array } as const;
type TypeName = keyof typeof TYPES;

interface Header {
  seq: number;
  instance: string;
  builtAt: string;
  arrays: Record<string, { type: TypeName; offset: number; length: number }>;
  strings: Record<string, { offset: number; bytes: number; count: number }>;
  dict: MarkData['dict'];
  ready: Pick<ReadyData, 'answers' | 'bitmapFrom'>;
}

const VOCAB_ARRAYS = ['reversed', 'gramOffsets', 'gramWords', 'delHashes', 'delWords', 'codeOffsets', 'codeWords', 'primary'] as const;
const MARK_ARRAYS = [
  'appNo',
  'info',
  'rank',
  'wordOffsets',
  'markWords',
  'markLen',
  'exactIds',
  'postOffsets',
  'postMarks',
  'postLen',
  'postInfo',
  'firstOffsets',
  'firstMarks',
  'firstLen',
  'firstInfo',
  'lastOffsets',
  'lastMarks',
  'lastLen',
  'lastInfo',
  'onlyOffsets',
  'onlyMarks',
  'onlyInfo',
  'runHashes',
  'runFirst',
  'runOffsets',
  'runMarks',
  'runStarts',
  'pairOffsets',
  'pairNext',
  'pairMarks',
  'ownerWordOffsets',
  'ownerPostings',
] as const;
const SUMMARY_ARRAYS = ['applicationDays', 'expireDays', 'alertCodes', 'ownerOf', 'displayIds', 'slugIds'] as const;
const SUMMARY_HEAPS = ['alerts', 'owners', 'displays', 'slugs'] as const;

export interface LoadedIndex {
  index: MarkIndex;
  seq: number;
  instance: string;
  builtAt: string;
}

/**
 * Saves `index` with the answers it keeps ready and its word bitmaps (src/search/readyData.ts), made here (about
 * 5 s at 7.7M marks) so that no process loading the snapshot makes its own; they are then offered to the first
 * live index over `index` too.
 */
export function saveSnapshot(file: string, index: MarkIndex, seq: number, instance: string): void {
  const v = index.vocab.d;
  const m = index.d;
  const entries = new LiveIndex(index).readyEntries();
  const ready = packReady(index.n, entries, index.sets.from);
  index.offerReady(entries);
  const arrays: [string, Typed][] = [
    ...VOCAB_ARRAYS.map((k) => [`v.${k}`, v[k]] as [string, Typed]),
    ...MARK_ARRAYS.map((k) => [`m.${k}`, m[k]] as [string, Typed]),
    ...SUMMARY_ARRAYS.map((k) => [`s.${k}`, m.summary[k]] as [string, Typed]),
    ...SUMMARY_HEAPS.flatMap(
      (k) =>
        [
          [`s.${k}.offsets`, m.summary[k].offsets],
          [`s.${k}.bytes`, m.summary[k].bytes],
        ] as [string, Typed][],
    ),
    ...READY_ARRAYS.map((k) => [`r.${k}`, ready[k]] as [string, Typed]),
  ];
  const strings: [string, string[] | TextList][] = [
    ['v.words', v.words],
    ['v.codes', v.codes],
    ['m.exactKeys', m.exactKeys],
    ['m.ownerWords', m.ownerWords],
  ];
  const blobs = strings.map(([, list]) => (list instanceof TextList ? list.bytes : Buffer.from(list.join('\n'), 'utf8')));
  const header: Header = {
    seq,
    instance,
    builtAt: new Date().toISOString(),
    arrays: {},
    strings: {},
    dict: m.dict,
    ready: { answers: ready.answers, bitmapFrom: ready.bitmapFrom },
  };
  // Offsets are relative to the data area; the header is written first, its length in front of it.
  let at = 0;
  const align = () => (at = Math.ceil(at / 8) * 8);
  for (const [name, a] of arrays) {
    align();
    header.arrays[name] = { type: a.constructor.name as TypeName, offset: at, length: a.length };
    at += a.byteLength;
  }
  strings.forEach(([name, list], i) => {
    align();
    header.strings[name] = { offset: at, bytes: blobs[i].length, count: list.length };
    at += blobs[i].length;
  });
  const head = Buffer.from(JSON.stringify(header), 'utf8');
  const dataStart = Math.ceil((MAGIC.length + 4 + head.length) / 8) * 8;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  try {
    const pre = Buffer.alloc(dataStart);
    pre.write(MAGIC, 0, 'latin1');
    pre.writeUInt32LE(head.length, MAGIC.length);
    head.copy(pre, MAGIC.length + 4);
    fs.writeSync(fd, pre, 0, pre.length, 0);
    for (const [name, a] of arrays) {
      fs.writeSync(fd, new Uint8Array(a.buffer, a.byteOffset, a.byteLength), 0, a.byteLength, dataStart + header.arrays[name].offset);
    }
    strings.forEach(([name], i) => fs.writeSync(fd, blobs[i], 0, blobs[i].length, dataStart + header.strings[name].offset));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

/** What a snapshot file says about itself (its header only: the arrays are not read), or null when there is none. */
export async function snapshotHeader(file: string): Promise<{ seq: number; instance: string; builtAt: string } | null> {
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const pre = Buffer.alloc(MAGIC.length + 4);
    await fh.read(pre, 0, pre.length, 0);
    if (pre.toString('latin1', 0, MAGIC.length) !== MAGIC) return null;
    const head = Buffer.alloc(pre.readUInt32LE(MAGIC.length));
    await fh.read(head, 0, head.length, pre.length);
    const h = JSON.parse(head.toString('utf8')) as Header;
    return { seq: h.seq, instance: h.instance, builtAt: h.builtAt };
  } finally {
    await fh.close();
  }
}

/** How a snapshot's bytes come into a process: mapped (shared with the machine's other processes) or read (its own). */
export type SnapshotLoad = 'map' | 'read';

/** Whether this build can map files (the addon was built when the packages were installed). */
export const canMapSnapshots = mapFile !== null;

const PAGE = 4096;
/** Pages touched between two turns of the event loop (16 MB: a few milliseconds from the page cache). */
const TOUCH_SLICE = 4096;
/** What touching the pages read, kept so that the reads cannot be optimised away. */
export let touched = 0;

/**
 * The file's bytes mapped, its pages made resident now rather than on a search's first touch. A read of
 * one byte per page maps a page of the page cache (from disk if need be); a write would copy it, so
 * nothing here writes. Touched in slices, so a snapshot swapped in while serving does not hold requests.
 */
async function mapped(file: string): Promise<Buffer> {
  const buf = Buffer.from(mapFile!(file));
  let sum = 0;
  for (let at = 0; at < buf.length; at += PAGE * TOUCH_SLICE) {
    const end = Math.min(buf.length, at + PAGE * TOUCH_SLICE);
    for (let i = at; i < end; i += PAGE) sum += buf[i];
    await new Promise((r) => setImmediate(r));
  }
  touched = sum;
  return buf;
}

async function bytesOf(file: string, how: SnapshotLoad): Promise<Buffer | null> {
  try {
    if (how === 'map' && canMapSnapshots) return await mapped(file);
    return await fs.promises.readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * The index saved in `file`, or null when there is none or it is of another format. Read (or mapped and
 * touched) without holding the event loop for long.
 */
export async function loadSnapshot(file: string, how: SnapshotLoad = 'map'): Promise<LoadedIndex | null> {
  const buf = await bytesOf(file, how);
  if (!buf || buf.length < MAGIC.length + 4) return null;
  if (buf.toString('latin1', 0, MAGIC.length) !== MAGIC) return null;
  const headLen = buf.readUInt32LE(MAGIC.length);
  const header = JSON.parse(buf.toString('utf8', MAGIC.length + 4, MAGIC.length + 4 + headLen)) as Header;
  const dataStart = Math.ceil((MAGIC.length + 4 + headLen) / 8) * 8;
  // Typed arrays need their element alignment: a buffer not starting on 8 bytes is copied once.
  const base = buf.byteOffset % 8 === 0 ? buf : Buffer.from(buf);
  const array = (name: string): Typed => {
    const a = header.arrays[name];
    if (a.length === 0) return new TYPES[a.type](0);
    return new TYPES[a.type](base.buffer as ArrayBuffer, base.byteOffset + dataStart + a.offset, a.length);
  };
  // Kept as the snapshot's bytes (mapped: the machine's one copy), decoded when read.
  const texts = (name: string) => {
    const s = header.strings[name];
    return new TextList(base.subarray(dataStart + s.offset, dataStart + s.offset + s.bytes), s.count);
  };
  const vd = Object.fromEntries(VOCAB_ARRAYS.map((k) => [k, array(`v.${k}`)])) as unknown as VocabularyData;
  vd.words = texts('v.words');
  vd.codes = texts('v.codes');
  const md = Object.fromEntries(MARK_ARRAYS.map((k) => [k, array(`m.${k}`)])) as unknown as MarkData;
  md.exactKeys = texts('m.exactKeys');
  md.ownerWords = texts('m.ownerWords');
  const sd = Object.fromEntries(SUMMARY_ARRAYS.map((k) => [k, array(`s.${k}`)])) as Record<string, unknown>;
  for (const k of SUMMARY_HEAPS) sd[k] = { offsets: array(`s.${k}.offsets`), bytes: array(`s.${k}.bytes`) };
  md.summary = sd as unknown as MarkData['summary'];
  md.dict = header.dict;
  const rd = Object.fromEntries(READY_ARRAYS.map((k) => [k, array(`r.${k}`)])) as unknown as ReadyData;
  md.ready = { ...rd, ...header.ready };
  return { index: new MarkIndex(new Vocabulary(vd), md), seq: header.seq, instance: header.instance, builtAt: header.builtAt };
}
