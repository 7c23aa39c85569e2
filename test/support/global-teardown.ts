/**
 * Jest globalTeardown: stops the database engine started by global-setup.ts (if it started one)
 * and removes its temp directory. Nothing to do when the tests used an external MONGODB_URI.
 */
import { rm } from 'node:fs/promises';
import { ENGINE_STATE_KEY, type EngineState } from './engine-state';

export default async function globalTeardown(): Promise<void> {
  const globals = globalThis as Record<string, unknown>;
  const state = globals[ENGINE_STATE_KEY] as EngineState | undefined;
  if (!state) return;
  delete globals[ENGINE_STATE_KEY];
  await state.engine.stop();
  await rm(state.tmpDir, { recursive: true, force: true });
}
