/**
 * The website the gateway references, with the keys subgraph's access verdict (`@requires`): the
 * parent of every `Website` field here (the `Website` mapper in codegen.ts).
 */
export interface WebsiteRef {
  id: string;
  readableByCaller?: boolean;
  /** Given (by @requires) to the fields that count goals. */
  goals?: Array<{
    id: string;
    name: string;
    kind: 'PAGE' | 'EVENT';
    pagePath?: string | null;
    eventName?: string | null;
    currency?: string | null;
  }> | null;
}
