/**
 * What the hardware gives for an answer without any of the API's work: an Express handler that
 * answers every GET with one fixed body and fixed headers (those of a real API response), no key,
 * limits, call log or data. `bench-api` runs it as its own process beside the stack, and compares
 * the API's repeated reads with it.
 *
 * Usage: node dist/scripts/lib/bare-express.js <port> <body> <headers as JSON>
 */
import express from 'express';

const [port, body, headersJson] = process.argv.slice(2);
if (!port || body === undefined || !headersJson) {
  console.error('usage: bare-express <port> <body> <headers as JSON>');
  process.exit(2);
}
const headers = JSON.parse(headersJson) as Record<string, string>;

const app = express();
app.get('/{*path}', (_req, res) => {
  res.set(headers).send(body);
});
const server = app.listen(Number(port), '127.0.0.1');
server.keepAliveTimeout = 30_000;
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
