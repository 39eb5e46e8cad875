// Staging: each entity's valid lines are COPYed into a TEMP table (no WAL, dropped at commit) that
// keeps the file's line number per row, so problems found later in SQL can still name the line.
import { once } from 'node:events';
import type { ClientBase } from 'pg';
import copyStreams from 'pg-copy-streams';
import { type Entity, stagedColumns } from './entities.ts';

export const stageTable = (e: { name: string }) => `stage_${e.name}`;

/** Creates the entity's staging table with the target table's column types, plus `line`. */
export async function createStage(client: ClientBase, e: Entity): Promise<void> {
  const cols = stagedColumns(e).join(', ');
  await client.query(`drop table if exists ${stageTable(e)}`);
  await client.query(
    `create temp table ${stageTable(e)} on commit drop as
       select 0::integer as line, ${cols} from ${e.table} with no data`,
  );
}

// Rows are gathered into strings of about this size before they go to the socket: big enough that
// per-write overhead vanishes, small enough to keep memory flat.
const FLUSH_AT = 1 << 20;

/** A COPY ... FROM STDIN into a staging table, fed with rows in COPY text format. */
export class StageWriter {
  private pending = '';
  private readonly stream: ReturnType<typeof copyStreams.from>;
  private failure: Error | undefined;
  private readonly finished: Promise<void>;
  rows = 0;

  constructor(client: ClientBase, e: Entity) {
    this.stream = client.query(copyStreams.from(`copy ${stageTable(e)} (line, ${stagedColumns(e).join(', ')}) from stdin`));
    this.finished = new Promise((resolve, reject) => {
      this.stream.on('finish', resolve);
      this.stream.on('error', (err: Error) => {
        this.failure = err;
        reject(err);
      });
    });
    // Rejections are also surfaced by end()/flush(); this keeps an early one from being "unhandled".
    this.finished.catch(() => undefined);
  }

  /** Adds one row: line number, then the already-encoded columns (tab separated). */
  add(line: number, row: string): void {
    this.pending += `${line}\t${row}\n`;
    this.rows++;
  }

  /** Sends gathered rows once there are enough; waits while PostgreSQL is behind. */
  async maybeFlush(): Promise<void> {
    if (this.pending.length >= FLUSH_AT) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.pending) return;
    const ok = this.stream.write(Buffer.from(this.pending, 'utf8'));
    this.pending = '';
    if (!ok) await Promise.race([once(this.stream, 'drain'), this.finished]);
  }

  async end(): Promise<number> {
    await this.flush();
    this.stream.end();
    await this.finished;
    return this.rows;
  }

  /**
   * Abandons the COPY: PostgreSQL answers the CopyFail with an error, after which the connection
   * takes the ROLLBACK that follows.
   */
  async abort(err: Error): Promise<void> {
    if (!this.stream.destroyed && !this.stream.writableFinished) this.stream.destroy(err);
    await this.finished.catch(() => undefined);
  }
}
