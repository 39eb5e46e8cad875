import { parentPort, workerData } from 'node:worker_threads';
import { Shard, type ShardConfig } from './shard.ts';

// Worker thread entry: renders the chunks the main thread asks for and hands the bytes back
// without copying (the buffers' memory is transferred).

const shard = new Shard(workerData as ShardConfig);

parentPort!.on('message', (msg: { chunk: number; start: number; end: number }) => {
  const out = shard.chunk(msg.start, msg.end);
  const parts = Object.entries(out.bytes).map(([entity, buf]) => ({ entity, ab: buf.buffer, offset: buf.byteOffset, length: buf.length }));
  parentPort!.postMessage(
    { chunk: msg.chunk, parts, lines: out.lines },
    parts.map((p) => p.ab as ArrayBuffer),
  );
});
