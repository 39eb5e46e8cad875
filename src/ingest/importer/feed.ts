// Feeding one JSON Lines file into its staging table: read, check, resolve files, COPY. Node parses
// the next chunk while PostgreSQL ingests the previous one, so both cores stay busy.
import type { ClientBase } from 'pg';
import type { Entity } from './entities.ts';
import type { FileFacts, FileResult, SetFiles } from './files.ts';
import { AscendingKeys, checkLine, copyText, readLines } from './lines.ts';
import type { Progress } from './progress.ts';
import { StageWriter } from './stage.ts';

export interface Fed {
  lines: number;
  staged: number;
  rejected: number;
  /** Keys arrived strictly ascending, so the file cannot hold a key twice. */
  ascending: boolean;
}

/** Where refused lines go: counted, reported as `file:line: reason`. */
export interface RejectSink {
  reject(file: string, line: number, reason: string): void;
}

// Lines waiting for a file (first sight of a PDF, every logo) are settled in groups this large.
const MAX_PENDING = 64;

/** The computed columns (files.ts facts) of a row, in COPY text. */
function fileColumns(e: Entity, f: FileFacts): string {
  const n = (v: number | undefined) => (v === undefined ? '\\N' : String(v));
  switch (e.name) {
    case 'documents':
      return `${copyText(f.key)}\t${f.size}`;
    case 'logos':
      return `${copyText(f.key)}\t${f.contentType ?? '\\N'}\t${n(f.width)}\t${n(f.height)}`;
    default:
      return copyText(f.key);
  }
}

export async function feedFile(opts: {
  client: ClientBase;
  entity: Entity;
  path: string;
  files: SetFiles;
  sink: RejectSink;
  progress: Progress;
}): Promise<Fed> {
  const { entity: e, files, sink, progress } = opts;
  const file = `${e.name}.jsonl`;
  const hasFile = e.fields.some((f) => f.kind === 'file');
  const noFile = '\t\\N'.repeat(e.computed.length);
  const image = e.name === 'logos';
  const keys = new AscendingKeys();
  const writer = new StageWriter(opts.client, e);
  const started = Date.now();
  let lines = 0;
  let rejected = 0;
  let pending: Promise<void>[] = [];
  // A file the store could not take (ENOSPC, EACCES...) is fatal for the whole import. The handler is
  // attached when the promise is made: a rejection left unhandled until Promise.all would kill the
  // process (exit 1, which means "some lines refused") instead of failing the import (exit 2).
  let failure: { err: unknown } | undefined;
  const fail = (err: unknown) => {
    failure ??= { err };
  };
  const stopOnFailure = () => {
    if (failure) throw failure.err;
  };
  const refuse = (line: number, reason: string) => {
    rejected++;
    sink.reject(file, line, reason);
  };
  const settle = (line: number, row: string, r: FileResult) => {
    if ('reason' in r) refuse(line, r.reason);
    else writer.add(line, `${row}\t${fileColumns(e, r)}`);
  };

  try {
    for await (const batch of readLines(opts.path)) {
      const texts = batch.lines;
      for (let i = 0; i < texts.length; i++) {
        const text = texts[i];
        const line = batch.first + i;
        // Not valid UTF-8, or too long to read (lines.ts).
        const unread = batch.refused?.get(i);
        if (unread !== undefined) {
          lines++;
          refuse(line, unread);
          continue;
        }
        // Blank lines (a trailing empty line, say) hold no record.
        if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === '')) continue;
        lines++;
        const c = checkLine(e, text);
        if ('reason' in c) {
          refuse(line, c.reason);
          continue;
        }
        keys.see(c.key);
        if (!hasFile) {
          writer.add(line, c.row);
        } else if (c.file === undefined) {
          writer.add(line, c.row + noFile);
        } else {
          const r = files.resolve(c.file, image);
          if (r instanceof Promise) {
            const row = c.row;
            pending.push(r.then((res) => settle(line, row, res), fail));
            if (pending.length >= MAX_PENDING) {
              await Promise.all(pending);
              pending = [];
              stopOnFailure();
            }
          } else {
            settle(line, c.row, r);
          }
        }
      }
      stopOnFailure();
      progress.reading(file, lines, started);
      await writer.maybeFlush();
    }
    await Promise.all(pending);
    stopOnFailure();
    const staged = await writer.end();
    progress.doneReading(file, lines, staged, started);
    return { lines, staged, rejected, ascending: keys.ascending };
  } catch (err) {
    await Promise.allSettled(pending);
    await writer.abort(err as Error);
    throw err;
  }
}
