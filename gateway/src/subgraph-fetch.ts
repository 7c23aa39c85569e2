import { Agent } from 'undici';

/** The gateway's keep-alive connection pool to the subgraphs. */
export function createSubgraphAgent(): Agent {
  return new Agent({ keepAliveTimeout: 30_000, connections: 64 });
}
