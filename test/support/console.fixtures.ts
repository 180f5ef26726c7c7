import type { App } from '../../src/http/index.js';
import type { TestStore } from '../helpers.js';

/**
 * The console driven through app.inject (no browser): sign in with a store's admin, then GET pages and
 * POST forms with the session's cookie and CSRF token, as a browser would. The browser tests are
 * test/console-*.system.test.ts (test/support/console-browser.ts).
 */

export interface ConsoleClient {
  cookie: string;
  csrf: string;
  get(url: string): Promise<ConsolePage>;
  post(url: string, form: Record<string, string>, headers?: Record<string, string>): Promise<ConsolePage>;
}

export interface ConsolePage {
  status: number;
  body: string;
  headers: Record<string, string | string[] | number | undefined>;
}

let address = 0;
/** Each sign-in from its own client address, so the per-address throttle never couples tests. */
export const nextAddress = () => `10.36.${Math.floor(++address / 250)}.${(address % 250) + 1}`;

export function formBody(form: Record<string, string>): string {
  return new URLSearchParams(form).toString();
}

export async function postLogin(
  app: App,
  form: Record<string, string>,
  remoteAddress = nextAddress(),
  headers: Record<string, string> = {},
) {
  const res = await app.inject({
    method: 'POST',
    url: '/console/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: formBody(form),
    remoteAddress,
  });
  return { status: res.statusCode, body: res.body, headers: res.headers };
}

/** The `name=value` of the session cookie a sign-in set. */
export function sessionCookieOf(setCookie: string | string[] | undefined): string {
  const line = [setCookie ?? []].flat().find((entry) => entry.startsWith('sf_console='));
  if (!line) throw new Error(`no session cookie in ${JSON.stringify(setCookie)}`);
  return line.split(';')[0];
}

export const csrfOfPage = (body: string) => /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? '';

export async function signIn(app: App, store: TestStore): Promise<ConsoleClient> {
  const login = await postLogin(app, { store: store.slug, email: store.email, password: store.password });
  if (login.status !== 303) throw new Error(`sign-in failed: ${login.status} ${login.body}`);
  const cookie = sessionCookieOf(login.headers['set-cookie']);
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url, headers: { cookie } });
    return { status: res.statusCode, body: res.body, headers: res.headers };
  };
  const csrf = csrfOfPage((await get('/console')).body);
  const post = async (url: string, form: Record<string, string>, headers: Record<string, string> = {}) => {
    const res = await app.inject({
      method: 'POST',
      url,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: formBody(form),
    });
    return { status: res.statusCode, body: res.body, headers: res.headers };
  };
  return { cookie, csrf, get, post };
}
