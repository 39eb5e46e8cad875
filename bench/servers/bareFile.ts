// The download baseline: a bare node:http server piping fs.createReadStream of one file, with the
// headers a browser needs (type, length, disposition) and nothing else: no signature, no plan check,
// no ranges.

import fs from 'node:fs';
import http from 'node:http';

const file = process.env.BENCH_FILE!;
const size = fs.statSync(file).size;
const server = http.createServer((_req, res) => {
  res.writeHead(200, {
    'Content-Type': 'application/pdf',
    'Content-Length': String(size),
    'Content-Disposition': 'inline; filename="bench.pdf"',
  });
  fs.createReadStream(file).pipe(res);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
