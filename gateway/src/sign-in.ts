import express, { Router, type Request, type Response } from 'express';
import { parse as parseCookies } from 'cookie';
import type { RedisClient } from '../../common/platform/redis';
import type { Dispatcher } from 'undici';
import { z } from 'zod';
import { postAsService } from '../../common/platform/graphql-post';
import type { Logger } from '../../common/platform/logger';
import { windowLimit } from '../../common/platform/per-minute-limit';
import { sha256Hex } from '../../common/platform/secrets';
import {
  invalidEmail,
  invalidLoginLink,
  linksNotMailedHere,
  sessionNotOpened,
  signInNeedsJson,
  SignInError,
  signInUnavailable,
  tooManyLinks,
} from './errors';
import type { Mailer } from './mailer';

export const SESSION_COOKIE = 'wa_session';
export const SIGN_IN_PATH = '/sign-in';

const ISSUE = `mutation IssueLoginLink($email: String!) { issueLoginLink(email: $email) }`;
const REDEEM = `mutation RedeemLoginLink($secretHash: String!) {
  redeemLoginLink(secretHash: $secretHash) { token accessToken { expiresAt } }
}`;
const END = `mutation EndSession($secretHash: String!) { endSession(secretHash: $secretHash) }`;

const emailBody = z.object({ email: z.email().max(320) });
const tokenBody = z.object({ token: z.string().min(1).max(200) });

const LINKS_PER_WINDOW = 5;
const LINK_WINDOW_SECONDS = 15 * 60;

/**
 * Link requests per client address (enough for a person, too few to flood mailboxes) and per
 * email address (so that one mailbox cannot be flooded from many addresses), counted before
 * anyone looks the address up, so that an address with an account is limited like one without.
 * The email is keyed by its hash, as the keys subgraph matches it (trimmed, lower case). Null when
 * allowed, else the seconds to wait.
 */
function linkRequestLimits(redis: RedisClient, prefix: string) {
  const perClient = windowLimit(
    redis,
    `${prefix}signin:link:client`,
    LINKS_PER_WINDOW,
    LINK_WINDOW_SECONDS,
  );
  const perEmail = windowLimit(
    redis,
    `${prefix}signin:link:email`,
    LINKS_PER_WINDOW,
    LINK_WINDOW_SECONDS,
  );
  // The client first: a client over its limit cannot fill the store with email keys.
  return async (client: string, email: string): Promise<number | null> =>
    (await perClient(client)) ?? (await perEmail(sha256Hex(email.trim().toLowerCase())));
}

/** The dashboard session a request carries in its cookie; null when none. */
export function sessionFromCookie(req: Request): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  return parseCookies(header)[SESSION_COOKIE] ?? null;
}

export interface SignInOptions {
  keysUrl: string;
  internalSecret: string;
  dispatcher: Dispatcher;
  redis: RedisClient;
  redisKeyPrefix: string;
  /** null: no way to mail links here (production without SMTP). */
  mailer: Mailer | null;
  /** The dashboard's public origin, for the links mailed (never taken from the request's Host). */
  dashboardUrl: () => string;
  secureCookie: boolean;
  logger: Logger;
}

/** The keys subgraph's answer to one of the mutations above; `failure` when it has none. */
type KeysCall = <T>(
  query: string,
  variables: Record<string, string>,
  failure?: () => SignInError,
) => Promise<T>;

function keysCaller(options: SignInOptions): KeysCall {
  return async <T>(
    query: string,
    variables: Record<string, string>,
    failure: () => SignInError = signInUnavailable,
  ): Promise<T> => {
    let answer;
    try {
      answer = await postAsService(
        options.keysUrl,
        options.dispatcher,
        { query, variables },
        { secret: options.internalSecret, service: 'gateway', audience: 'keys' },
      );
    } catch {
      throw failure();
    }
    const body = JSON.parse(answer.text) as { data?: T; errors?: unknown[] };
    if (answer.status !== 200 || body.errors || !body.data) throw failure();
    return body.data;
  };
}

const jsonOnly = (req: Request) => {
  if (!req.is('application/json')) throw signInNeedsJson();
};

/**
 * The dashboard's sign-in: `POST /auth/login-link` mails a one-time link (15 minutes),
 * `POST /auth/sign-in` trades it for a session cookie, `POST /auth/sign-out` ends the session.
 * Only JSON bodies are accepted, so a cross-site form cannot post here, and the cookie is
 * httpOnly and SameSite=Strict, so no other site's page can use it.
 */
export function signInRouter(options: SignInOptions): Router {
  const router = Router();
  const callKeys = keysCaller(options);
  const handle = handler(options.logger);
  router.post(
    '/auth/login-link',
    express.json({ limit: '4kb' }),
    handle(requestLink(options, callKeys)),
  );
  router.post('/auth/sign-in', express.json({ limit: '4kb' }), handle(signIn(options, callKeys)));
  router.post('/auth/sign-out', handle(signOut(options, callKeys)));
  return router;
}

type Step = (req: Request, res: Response) => Promise<void>;

/** Mails a sign-in link; the same answer whether or not the address has an account. */
function requestLink(options: SignInOptions, callKeys: KeysCall): Step {
  const limitLinks = linkRequestLimits(options.redis, options.redisKeyPrefix);
  return async (req, res) => {
    jsonOnly(req);
    const mailer = options.mailer;
    if (!mailer) throw linksNotMailedHere();
    const parsed = emailBody.safeParse(req.body);
    if (!parsed.success) throw invalidEmail();
    const wait = await limitLinks(req.ip ?? 'unknown', parsed.data.email);
    if (wait !== null) {
      res.setHeader('Retry-After', String(wait));
      throw tooManyLinks();
    }
    const { issueLoginLink } = await callKeys<{ issueLoginLink: string | null }>(ISSUE, {
      email: parsed.data.email,
    });
    // The same answer, as soon, whether or not the address has an account: nothing to
    // enumerate. So the mail goes out after the answer, and a failure to send is only logged.
    res.status(202).json({ sent: true });
    if (issueLoginLink) {
      const url = `${options.dashboardUrl()}${SIGN_IN_PATH}?token=${encodeURIComponent(issueLoginLink)}`;
      mailer.sendSignInLink(parsed.data.email, url).catch((error: unknown) => {
        options.logger.error({ err: (error as Error).message }, 'could not send a sign-in link');
      });
    }
  };
}

/** Trades a sign-in link for the session cookie. */
function signIn(options: SignInOptions, callKeys: KeysCall): Step {
  return async (req, res) => {
    jsonOnly(req);
    const parsed = tokenBody.safeParse(req.body);
    if (!parsed.success) throw invalidLoginLink();
    const { redeemLoginLink } = await callKeys<{
      redeemLoginLink: { token: string; accessToken: { expiresAt: string } } | null;
    }>(REDEEM, { secretHash: sha256Hex(parsed.data.token) }, sessionNotOpened);
    if (!redeemLoginLink) throw invalidLoginLink();
    const expires = new Date(redeemLoginLink.accessToken.expiresAt);
    res.cookie(SESSION_COOKIE, redeemLoginLink.token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: options.secureCookie,
      path: '/',
      expires,
    });
    res.status(204).end();
  };
}

/** Ends the session the cookie names, and clears the cookie. */
function signOut(options: SignInOptions, callKeys: KeysCall): Step {
  return async (req, res) => {
    const session = sessionFromCookie(req);
    if (session) await callKeys(END, { secretHash: sha256Hex(session) });
    res.clearCookie(SESSION_COOKIE, {
      httpOnly: true,
      sameSite: 'strict',
      secure: options.secureCookie,
      path: '/',
    });
    res.status(204).end();
  };
}

/** Answers a step's SignInError as `{error:{code,message}}`; anything else is logged and a 503. */
function handler(logger: Logger) {
  return (step: Step) => (req: Request, res: Response) => {
    step(req, res).catch((error: unknown) => {
      if (!(error instanceof SignInError)) {
        logger.error({ err: error }, 'sign-in failed');
        error = signInUnavailable();
      }
      const { status, code, message } = error as SignInError;
      if (code === 'service_unavailable') res.setHeader('Retry-After', '5');
      res.status(status).json({ error: { code, message } });
    });
  };
}
