import { parentPort } from 'node:worker_threads';
import { Vocabulary, type VocabularyData } from './vocabulary.ts';

// Builds a vocabulary's lookups in a worker thread (src/search/build.ts starts it while the main
// thread lays out the marks): a sorted word list in, every lookup but the word list itself out, its
// arrays moved rather than copied, and the phonetic codes as strings (a TextList would arrive without its methods).
export type VocabularyLookups = Omit<VocabularyData, 'words' | 'codes'> & { codes: string[] };

parentPort!.once('message', (words: string[]) => {
  const { words: _words, codes, ...arrays } = Vocabulary.build(words).d;
  const lookups = { ...arrays, codes: codes.toArray() };
  const buffers = new Set<ArrayBuffer>();
  for (const v of Object.values(arrays)) if (ArrayBuffer.isView(v)) buffers.add(v.buffer as ArrayBuffer);
  parentPort!.postMessage(lookups satisfies VocabularyLookups, [...buffers]);
});
