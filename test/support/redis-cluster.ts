/**
 * A throw-away Redis Cluster of local `redis-server` processes (three masters, no replicas) on
 * free loopback ports, for running the integration tests on a cluster (`npm run test:cluster`,
 * global-setup.ts with TEST_REDIS_CLUSTER=1). Its URL is `redis+cluster://127.0.0.1:<port>,…`,
 * which every service and test connection understands (common/platform/redis.ts).
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { freePort, onPath, startEngine, type StartedEngine } from '../../scripts/lib/engines';

const MASTERS = 3;
const READY_TIMEOUT_MS = 30_000;

export interface LocalRedisCluster {
  url: string;
  ports: number[];
  stop(): Promise<void>;
  /** At once and synchronously (a process 'exit' handler): SIGKILL, then the data removed. */
  kill(): void;
}

export async function startRedisCluster(): Promise<LocalRedisCluster> {
  const server = onPath('redis-server');
  const cli = onPath('redis-cli');
  if (!server || !cli)
    throw new Error('a Redis Cluster for the tests needs redis-server and redis-cli on PATH');
  const dataDir = await mkdtemp(join(tmpdir(), 'wa-test-redis-cluster-'));
  const nodes: StartedEngine[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < MASTERS; i += 1) {
      const dir = join(dataDir, `node-${i}`);
      await mkdir(dir);
      nodes.push(
        await startEngine({ kind: 'redis-server', path: server }, dir, undefined, {
          // The cluster bus would be port + 10000 by default, past 65535 for a high free port.
          extraArgs: async () => [
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            join(dir, 'nodes.conf'),
            '--cluster-port',
            String(await freePort()),
            '--cluster-node-timeout',
            '5000',
          ],
        }),
      );
    }
    const ports = nodes.map((node) => node.port);
    await run(cli, [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    await Promise.all(ports.map((port) => untilClusterOk(port)));
    return {
      url: `redis+cluster://${ports.map((port) => `127.0.0.1:${port}`).join(',')}`,
      ports,
      stop,
      kill: () => {
        for (const { child } of nodes)
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Each node must see every slot served (`cluster_state:ok`) before a client asks it. */
async function untilClusterOk(port: number): Promise<void> {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!/cluster_state:ok/.test(await redis.cluster('INFO'))) {
      if (Date.now() > deadline)
        throw new Error(`Redis Cluster node ${port}: not ok after ${READY_TIMEOUT_MS} ms`);
      await sleep(100);
    }
  } finally {
    redis.disconnect();
  }
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output.trim()}`)),
    );
  });
}
