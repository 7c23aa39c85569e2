import http from 'node:http';
import net from 'node:net';

/** How long in-flight requests may take to finish when a server stops. */
export const GRACE_MS = 5_000;
/** After the listener closed: time for requests already on their way to arrive and be served. */
const ARRIVAL_MS = 500;

/**
 * Closes an HTTP server without resetting a request it accepted. Node's `server.close()` (and
 * http-terminator) destroy every connection that is not inside a request at that instant, which
 * includes connections whose request is still in the kernel's buffer: their clients see a reset.
 * Here the listener closes first (new connections are refused, which a client can retry), every
 * answer from then on carries `Connection: close`, connections get a moment to deliver what is on
 * its way, then idle ones are closed and busy ones finish within the grace period.
 */
export class GracefulClose {
  private readonly sockets = new Set<net.Socket>();
  /** Connections inside a request, with the response being made. */
  private readonly busy = new Map<net.Socket, http.ServerResponse>();
  private closing = false;

  constructor(private readonly server: http.Server) {
    server.on('connection', (socket: net.Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => {
        this.sockets.delete(socket);
        this.busy.delete(socket);
      });
    });
    // Before the application's own listener, so the header is set before it answers.
    server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      this.busy.set(req.socket, res);
      if (this.closing) res.setHeader('Connection', 'close');
      res.once('close', () => this.busy.delete(req.socket));
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    // Requests already running end their connection with their answer.
    for (const res of this.busy.values())
      if (!res.headersSent) res.setHeader('Connection', 'close');
    const closed = new Promise<void>((resolve) =>
      // net.Server's close: stop accepting, without http.Server's closing of idle connections.
      net.Server.prototype.close.call(this.server, () => resolve()),
    );
    await this.until(() => this.sockets.size === this.busy.size, ARRIVAL_MS);
    for (const socket of this.sockets) if (!this.busy.has(socket)) socket.end();
    await this.until(() => this.sockets.size === 0, GRACE_MS);
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  private async until(done: () => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done() && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
