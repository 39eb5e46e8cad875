// Baseline for bench/detail.ts: bare node:http + pg running the very query the API runs for
// GET /v1/trademarks/{app_no}/ (all linked tables), with no framework around it.
import http from 'node:http';
import pg from 'pg';
import { createDb } from '../../src/db/knex.ts';
import { toPositional } from '../../src/db/prepared.ts';
import { TrademarkRepository } from '../../src/trademarks/repository.ts';
import type { LinkedTable } from '../../src/trademarks/sql.ts';

const url = process.env.DATABASE_URL!;
const port = Number(process.env.PORT ?? 3901);
const tables = ['status_history', 'proprietors', 'attorneys', 'oppositions', 'hearings', 'documents', 'exam_reports'] as LinkedTable[];
// Same SQL text, as the same named prepared statement, as the API.
const db = createDb(url, 1);
const sql = toPositional(new TrademarkRepository(db).detailQuery(tables));
await db.destroy();
const pool = new pg.Pool({ connectionString: url, max: 16 });

http
  .createServer(async (req, res) => {
    const m = /^\/v1\/trademarks\/(\d+)\/$/.exec(req.url ?? '');
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    try {
      const r = await pool.query({ name: 'detail', text: sql, values: [m[1]] });
      const body = JSON.stringify(r.rows[0] ?? { error: 'not found' });
      res.writeHead(r.rows[0] ? 200 : 404, { 'content-type': 'application/json' }).end(body);
    } catch (e) {
      res.writeHead(500).end(String(e));
    }
  })
  .listen(port, '127.0.0.1', () => process.send?.('ready'));
