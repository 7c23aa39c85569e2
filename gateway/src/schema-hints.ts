import type { ApolloServerPlugin } from '@apollo/server';
import { Lexer, Source, TokenKind } from 'graphql';
import type { GatewayContext } from './context';

/** Errors that describe a document against the schema: validation, and coercion of variables. */
const ABOUT_THE_SCHEMA = new Set(['GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT']);

const SUGGESTION = /\s*Did you mean\b.*$/s;
const QUOTED = /"([^"]*)"/g;
const NAME = /[_A-Za-z][_0-9A-Za-z]*/g;

/**
 * Where the schema is not published (introspection off, as in production), the errors about a
 * document must not map it. graphql-js suggests names (`Did you mean the enum value "ADMIN"?`,
 * GraphQL Armor's suggestion blocker misses that one) and names what surrounds a mistake
 * (`Cannot query field "x" on type "User"`, `Field "website" argument "id" of type "ID!" is
 * required`). This drops every suggestion and writes "…" for each quoted name the caller did not
 * write itself, in the document or its variables; the caller's own names stay, so the message
 * still says what was wrong.
 */
export function withoutSchemaHints(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, source, request }) {
          let written: Set<string> | undefined;
          for (const error of errors) {
            if (!ABOUT_THE_SCHEMA.has(String(error.extensions.code))) continue;
            written ??= wordsOf(source, request.variables);
            error.message = withoutHints(error.message, written);
          }
        },
      };
    },
  };
}

/** `message` without its suggestion, and with "…" for each quoted name not in `written`. */
export function withoutHints(message: string, written: ReadonlySet<string>): string {
  return message
    .replace(SUGGESTION, '')
    .replace(QUOTED, (quoted, inner: string) =>
      (inner.match(NAME) ?? []).every((name) => written.has(name)) ? quoted : '"…"',
    );
}

/** Every name and every word of a string value in the caller's document and variables. */
function wordsOf(source: string | undefined, variables: unknown): Set<string> {
  const words = new Set<string>();
  const add = (text: string) => {
    for (const name of text.match(NAME) ?? []) words.add(name);
  };
  if (source) {
    try {
      const lexer = new Lexer(new Source(source));
      for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance())
        if (token.value !== undefined) add(token.value);
    } catch {
      // Not lexable (then nothing validated it either): no name counts as the caller's.
    }
  }
  const visit = (value: unknown): void => {
    if (typeof value === 'string') add(value);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) {
        add(key);
        visit(inner);
      }
  };
  visit(variables);
  return words;
}
