import type { Client } from 'urql';
import { createGraphqlClient } from './graphql-client';

/**
 * The GraphQL client of the current session. `reset` replaces it (after signing in or out) so
 * nothing cached for one session shows in the next; an answer saying the session has ended
 * replaces it too and tells the `onSignedOut` listeners.
 */
export class ApiSession {
  private current: Client;
  private readonly clientListeners = new Set<() => void>();
  private readonly signedOutListeners = new Set<() => void>();

  constructor() {
    this.current = this.createClient();
  }

  readonly client = (): Client => this.current;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.clientListeners.add(listener);
    return () => this.clientListeners.delete(listener);
  };

  readonly onSignedOut = (listener: () => void): (() => void) => {
    this.signedOutListeners.add(listener);
    return () => this.signedOutListeners.delete(listener);
  };

  readonly reset = (): void => {
    this.current = this.createClient();
    for (const listener of this.clientListeners) listener();
  };

  private createClient(): Client {
    return createGraphqlClient(() => {
      this.reset();
      for (const listener of this.signedOutListeners) listener();
    });
  }
}
