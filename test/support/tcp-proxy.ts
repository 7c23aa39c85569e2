import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A loopback TCP proxy that a test can cut and restore, to take a dependency away for real, or
 * hold, to keep what callers send to the dependency back for as long as the test needs.
 */
export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1') {
  const sockets = new Set<net.Socket>();
  /** While held: bytes on their way to the target, in order, per connection. */
  const held = new Map<net.Socket, { upstream: net.Socket; chunks: Buffer[]; ended: boolean }>();
  let holding = false;
  let heldArrived: (() => void) | null = null;
  let server: net.Server;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(targetPort, targetHost);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.on('data', (chunk: Buffer) => {
          if (!holding) return void upstream.write(chunk);
          const entry = held.get(client) ?? { upstream, chunks: [], ended: false };
          entry.chunks.push(chunk);
          held.set(client, entry);
          heldArrived?.();
        });
        // A caller that finishes while its bytes are held has its end passed on after them.
        client.on('end', () => {
          const entry = held.get(client);
          if (entry) entry.ended = true;
          else upstream.end();
        });
        upstream.pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    /** Drops every connection and refuses new ones. */
    async cut() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
    restore: listen,
    /** From now on, keeps what callers send; resolves once something has arrived and is held. */
    hold(): { arrived: Promise<void> } {
      holding = true;
      const arrived = new Promise<void>((resolve) => (heldArrived = resolve));
      return { arrived };
    },
    /** Sends on what was held, in order, and stops holding. */
    release() {
      holding = false;
      heldArrived = null;
      for (const { upstream, chunks, ended } of held.values()) {
        for (const chunk of chunks) upstream.write(chunk);
        if (ended) upstream.end();
      }
      held.clear();
    },
    /**
     * Runs `send` and closes the connection its request went out on once the request has
     * arrived, without an answer (as a stopping server closing its kept-alive sockets does);
     * new connections are accepted again right after. Resolves with what `send` resolves with.
     */
    async dropUnder<T>(send: () => Promise<T>): Promise<T> {
      const { arrived } = this.hold();
      const sent = send();
      await arrived;
      await this.cut();
      await this.restore();
      this.release();
      return sent;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
