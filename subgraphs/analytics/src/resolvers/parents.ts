/**
 * The website the gateway references, with the keys subgraph's access verdict (`@requires`): the
 * parent of every `Website` field here (the `Website` mapper in codegen.ts).
 */
export interface WebsiteRef {
  id: string;
  readableByCaller?: boolean;
}
