import { runAdmin } from '../support/admin-cli';
import { captureLogs } from '../support/log-capture';
import { buildAccount } from '../support/factories';
import { graphql, http } from '../support/http';
import { startStack, testMongoUri, type Stack } from '../support/stack';
import { waitFor } from '../support/wait';

const ME = 'query { me { email } }';

/** The session cookie a Set-Cookie header sets, as a Cookie header would send it back. */
const cookieOf = (setCookie: string | null) => {
  expect(setCookie).toBeTruthy();
  return setCookie!.split(';')[0]!;
};

describe('dashboard sign-in (one-time links, session cookie)', () => {
  jest.setTimeout(90_000);
  let stack: Stack;
  const logs = captureLogs();
  beforeAll(async () => {
    stack = await startStack(
      'dashboard-sign-in',
      { WEBHOOK_WORKERS_ENABLED: 'false', LOG_LEVEL: 'info' },
      logs.sink,
    );
  });
  afterAll(() => stack.stop());

  const signIn = (token: string, contentType = 'application/json') =>
    http(`${stack.gateway.url}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: JSON.stringify({ token }),
    });
  const me = (cookie: string) =>
    graphql<{ me: { email: string } | null }>(stack.gateway.graphqlUrl, ME, {}, { cookie });

  it('when an operator prints a link with `admin login:link`, then it signs that user in once, with an httpOnly SameSite=Strict cookie the gateway accepts', async () => {
    const { user } = await buildAccount(stack);
    const { stdout } = await runAdmin(
      {
        MONGODB_URI: testMongoUri(`${stack.id}_keys`),
        REDIS_URL: stack.env.REDIS_URL!,
        REDIS_KEY_PREFIX: stack.env.REDIS_KEY_PREFIX!,
        DASHBOARD_URL: stack.gateway.url,
      },
      'login:link',
      '--email',
      user.email,
    );
    const { url } = JSON.parse(stdout) as { url: string };
    const link = new URL(url);
    expect(`${link.origin}${link.pathname}`).toBe(`${stack.gateway.url}/sign-in`);
    const token = link.searchParams.get('token')!;

    const signedIn = await signIn(token);
    expect(signedIn.status).toBe(204);
    const setCookie = signedIn.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^wa_session=wat_/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).toMatch(/Expires=/);
    const answer = await me(cookieOf(setCookie));
    expect(answer.body.data?.me?.email).toBe(user.email);

    // Used once: the same link again is refused.
    const again = await signIn(token);
    expect(again.status).toBe(401);
    expect(again.body).toEqual({
      error: { code: 'invalid_login_link', message: expect.any(String) },
    });
  });

  it('when the dashboard asks for a link by email, then it answers 202 whether or not the address has an account and the development transport logs the link only for a real user', async () => {
    const { user } = await buildAccount(stack);
    const ask = (email: string) =>
      http(`${stack.gateway.url}/auth/login-link`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
    expect(await ask(user.email)).toMatchObject({ status: 202, body: { sent: true } });
    expect(await ask('nobody-here@example.test')).toMatchObject({
      status: 202,
      body: { sent: true },
    });
    const logged = await waitFor(async () =>
      logs
        .records<{ to?: string; url?: string }>()
        .find((line) => line.to === user.email && line.url),
    );
    expect(logs.lines.some((line) => line.includes('nobody-here@example.test'))).toBe(false);
    const token = new URL(logged.url!).searchParams.get('token')!;
    expect((await signIn(token)).status).toBe(204);

    expect((await ask('not an email')).status).toBe(400);
  });

  it('when a sign-in or link request is not JSON (a cross-site form could send it), then it is refused with 415 and no session', async () => {
    const { user } = await buildAccount(stack);
    const token = await stack.keys.services.signIn.issueLink(user.email);
    const refused = await signIn(token!, 'text/plain');
    expect(refused.status).toBe(415);
    expect(refused.headers.get('set-cookie')).toBeNull();
    // The link was not used up by the refused attempt.
    expect((await signIn(token!)).status).toBe(204);
  });

  it('when a user signs out, then the cookie is cleared and the session value is refused at once', async () => {
    const { user } = await buildAccount(stack);
    const token = await stack.keys.services.signIn.issueLink(user.email);
    const cookie = cookieOf((await signIn(token!)).headers.get('set-cookie'));
    expect((await me(cookie)).body.data?.me?.email).toBe(user.email);

    const out = await http(`${stack.gateway.url}/auth/sign-out`, {
      method: 'POST',
      headers: { cookie },
    });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^wa_session=;/);
    const after = await me(cookie);
    expect(after.status).toBe(401);
    expect(after.body.errors?.[0]?.extensions?.code).toBe('invalid_access_token');
  });

  it('when 30 sign-ins race with one link, then exactly one gets a session, in each of five rounds', async () => {
    const { user } = await buildAccount(stack);
    for (let round = 0; round < 5; round += 1) {
      const token = await stack.keys.services.signIn.issueLink(user.email);
      const answers = await Promise.all(Array.from({ length: 30 }, () => signIn(token!)));
      const statuses = answers.map((answer) => answer.status);
      expect({ round, signedIn: statuses.filter((status) => status === 204).length }).toEqual({
        round,
        signedIn: 1,
      });
      expect(statuses.filter((status) => status !== 204).every((status) => status === 401)).toBe(
        true,
      );
    }
  });

  it('when no session can be opened after the link was claimed, then sign-in answers 503 saying the link may be used up, and the link stays used', async () => {
    const { user } = await buildAccount(stack);
    const token = await stack.keys.services.signIn.issueLink(user.email);
    const { credentials } = stack.keys.services;
    const createAccessToken = credentials.createAccessToken.bind(credentials);
    credentials.createAccessToken = () => Promise.reject(new Error('the write was lost'));
    let failed;
    try {
      failed = await signIn(token!);
    } finally {
      credentials.createAccessToken = createAccessToken;
    }
    expect(failed.status).toBe(503);
    expect(failed.headers.get('set-cookie')).toBeNull();
    expect(failed.body).toEqual({
      error: { code: 'service_unavailable', message: expect.stringMatching(/new (sign-in )?link/) },
    });

    const again = await signIn(token!);
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ error: { code: 'invalid_login_link' } });
    const fresh = await stack.keys.services.signIn.issueLink(user.email);
    expect((await signIn(fresh!)).status).toBe(204);
  });

  it('when a link is unknown or malformed, then sign-in answers 401 invalid_login_link', async () => {
    expect((await signIn('wal_unknown')).body).toMatchObject({
      error: { code: 'invalid_login_link' },
    });
    expect((await signIn('')).status).toBe(401);
  });

  it('when a session outlives DASHBOARD_SESSION_HOURS, then the gateway refuses it', async () => {
    const short = await startStack('dashboard-session-expiry', {
      WEBHOOK_WORKERS_ENABLED: 'false',
      DASHBOARD_SESSION_HOURS: '0.0003', // about one second
    });
    try {
      const { user } = await buildAccount(short);
      const token = await short.keys.services.signIn.issueLink(user.email);
      const signedIn = await http(`${short.gateway.url}/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      const cookie = cookieOf(signedIn.headers.get('set-cookie'));
      const refused = await waitFor(async () => {
        const answer = await graphql(short.gateway.graphqlUrl, ME, {}, { cookie });
        return answer.status === 401 ? answer : null;
      });
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('invalid_access_token');
    } finally {
      await short.stop();
    }
  });
});

describe('sign-in link requests behind a trusted proxy (limits per client and per address)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('sign-in-limits', {
      WEBHOOK_WORKERS_ENABLED: 'false',
      TRUSTED_PROXIES: 'loopback',
    });
  });
  afterAll(() => stack.stop());

  /** POST /auth/login-link for `email` as the proxy would forward it for `client`. */
  const ask = (email: string, client: string) =>
    http<{ error?: { code: string } }>(`${stack.gateway.url}/auth/login-link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: JSON.stringify({ email }),
    });
  /** Status, body and whether Retry-After came: all a caller learns from an answer. */
  const seen = async (answer: ReturnType<typeof ask>) => {
    const { status, body, headers } = await answer;
    const retryAfter = Number(headers.get('retry-after') ?? 0);
    return { status, body, retryAfter: retryAfter > 0 && retryAfter <= 15 * 60 };
  };

  it('when one client behind the trusted proxy asks for six links, then the sixth is 429 with Retry-After, and another client behind the same proxy still gets its link', async () => {
    for (let i = 0; i < 5; i += 1)
      expect((await ask(`someone-${i}@example.test`, '203.0.113.1')).status).toBe(202);
    expect(await seen(ask('someone-5@example.test', '203.0.113.1'))).toEqual({
      status: 429,
      body: { error: { code: 'too_many_requests', message: expect.any(String) } },
      retryAfter: true,
    });
    expect((await ask('someone-else@example.test', '203.0.113.2')).status).toBe(202);
  });

  it('when one address is asked for from six clients, then the sixth request is 429 whatever the case, alike for an address without an account, and the last client may still ask for other addresses', async () => {
    const { user } = await buildAccount(stack);
    const answers = async (email: string, network: string) => {
      const seenAnswers = [];
      for (let i = 1; i <= 6; i += 1) {
        const asked = i % 2 === 0 ? email.toUpperCase() : email;
        seenAnswers.push(await seen(ask(asked, `${network}.${i}`)));
      }
      const otherAddress = await ask(`other-${network}@example.test`, `${network}.6`);
      return { seenAnswers, otherAddress: otherAddress.status };
    };
    const known = await answers(user.email, '198.51.100');
    const unknown = await answers('nobody-at-all@example.test', '192.0.2');
    expect(known.seenAnswers.map((answer) => answer.status)).toEqual([
      202, 202, 202, 202, 202, 429,
    ]);
    expect(known.seenAnswers[5]!.retryAfter).toBe(true);
    expect(known.otherAddress).toBe(202);
    // Nothing tells an address with an account from one without.
    expect(unknown).toEqual(known);
  });
});

describe('sign-in link requests when mail cannot be sent', () => {
  let stack: Stack;
  const logs = captureLogs();
  beforeAll(async () => {
    stack = await startStack(
      'sign-in-smtp-down',
      // Nothing listens on port 1: every mail fails at once.
      { WEBHOOK_WORKERS_ENABLED: 'false', SMTP_URL: 'smtp://127.0.0.1:1', LOG_LEVEL: 'error' },
      logs.sink,
    );
  });
  afterAll(() => stack.stop());

  it('when the mail of a link fails, then the address with an account gets the same 202 as one without, and the failure is logged', async () => {
    const { user } = await buildAccount(stack);
    const ask = (email: string) =>
      http(`${stack.gateway.url}/auth/login-link`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
    const known = await ask(user.email);
    const unknown = await ask('nobody-here@example.test');
    expect({ status: known.status, body: known.body }).toEqual({
      status: 202,
      body: { sent: true },
    });
    expect({ status: unknown.status, body: unknown.body }).toEqual({
      status: 202,
      body: { sent: true },
    });
    await waitFor(() =>
      logs.records().find((line) => line.msg === 'could not send a sign-in link'),
    );
  });
});
