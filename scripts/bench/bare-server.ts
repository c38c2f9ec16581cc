/** The ceiling for bench-read: a bare express route answering fixed JSON bytes from memory. */
import fs from 'node:fs';
import express from 'express';

const [file, port] = process.argv.slice(2);
const body = fs.readFileSync(file!);
const app = express();
app.get('/api/products', (_req, res) => {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(body);
});
const server = app.listen(Number(port), '127.0.0.1', () => console.log('ready'));
server.keepAliveTimeout = 65_000;
