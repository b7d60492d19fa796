// Requests authenticated by the OAuth login of a profile of `~/.langsmith/config.json` (what `langsmith login`
// writes): `Authorization: Bearer <access token>`, the token read from the file, renewed with the refresh token
// shortly before it expires (or when LangSmith answers 401), and the renewed pair written back to the file, so
// that this client and LangSmith's own CLI and SDKs share one login.
//
// As the official SDKs do: the token endpoint comes from the deployment's authorization server metadata
// (RFC 8414, `/.well-known/oauth-authorization-server`, trusted only when its issuer is the URL asked and its
// token endpoint is on the issuer's origin), else `<api root>/oauth/token`; the grant is `refresh_token` with the
// client id `langsmith-cli`; a renewal holds the SDKs' lock (a directory `<file>.oauth.lock.lock`) and reads the
// file again under it, so that a renewal made meanwhile by another program is taken up instead of repeated.
//
// Errors name the profile and the file, never a token.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { LangSmithAuthError, LangSmithError } from './errors';
import type { HttpClient, RequestAuth } from './http';
import { displayProfilesPath, ProfilesFileError, readProfileLogin, type ProfileLogin } from './profiles';
import { untilAborted } from './abort';

/** Renew this long before the access token expires. */
export const LOGIN_RENEW_LEEWAY_MS = 60_000;
const RENEW_TIMEOUT_MS = 10_000;
const DISCOVERY_TIMEOUT_MS = 5_000;
const OAUTH_CLIENT_ID = 'langsmith-cli';
const WELL_KNOWN = '/.well-known/oauth-authorization-server';
/** A lock older than this was left by a program that stopped: it is broken. */
const LOCK_STALE_MS = 10_000;
const LOCK_POLL_MS = 10;

export interface ProfileLoginOptions {
  /** The profiles file (absolute). */
  file: string;
  /** The profile's name in it. */
  profile: string;
}

/** The API root without trailing slashes and without `/api/v1`: where the OAuth endpoints hang. */
function oauthRoot(apiUrl: string): string {
  const trimmed = apiUrl.replace(/\/+$/, '');
  return trimmed.endsWith('/api/v1') ? trimmed.slice(0, -'/api/v1'.length) : trimmed;
}

/** Issuers to try, most specific first: the API root, then `<origin>/api` (self-hosted), then the origin. */
function issuerCandidates(apiUrl: string): string[] {
  const root = oauthRoot(apiUrl);
  const bare = root.endsWith('/api') ? root.slice(0, -'/api'.length) : root;
  return [...new Set([root, `${bare}/api`, bare])].filter((c) => c && c !== '/api');
}

/** Where an issuer's metadata is: the RFC 8414 form (well-known before the path) first, then appended. */
function metadataUrls(issuer: string): string[] {
  const appended = `${issuer}${WELL_KNOWN}`;
  if (!URL.canParse(issuer)) return [appended];
  const u = new URL(issuer);
  const inserted = `${u.origin}${WELL_KNOWN}${u.pathname === '/' ? '' : u.pathname}`;
  return inserted === appended ? [inserted] : [inserted, appended];
}

/** The token endpoint a metadata document gives, when it describes `issuer` and keeps to its origin. */
function trustedTokenEndpoint(doc: unknown, issuer: string): string | undefined {
  if (!doc || typeof doc !== 'object') return undefined;
  const d = doc as { issuer?: unknown; token_endpoint?: unknown };
  if (typeof d.issuer !== 'string' || d.issuer.replace(/\/+$/, '') !== issuer.replace(/\/+$/, '')) return undefined;
  if (typeof d.token_endpoint !== 'string' || !URL.canParse(d.token_endpoint) || !URL.canParse(d.issuer)) return undefined;
  const endpoint = new URL(d.token_endpoint);
  const origin = new URL(d.issuer);
  return endpoint.protocol === origin.protocol && endpoint.host === origin.host ? endpoint.href : undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `work` holding the SDKs' refresh lock of `file` (a directory made atomically), waiting for it until `deadline`. */
async function withRenewLock<T>(file: string, deadline: number, what: string, work: () => Promise<T>): Promise<T> {
  const dir = `${file}.oauth.lock.lock`;
  const stamp = path.join(dir, 'created_at');
  const owner = randomUUID();
  for (;;) {
    try {
      await fs.mkdir(dir);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new LangSmithError(`Failed to ${what}: cannot lock ${displayProfilesPath(file)} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    const created = await fs
      .readFile(stamp, 'utf8')
      .then((t) => Date.parse(t.split('\n')[0]!.trim()))
      .catch(() => NaN);
    const since = Number.isNaN(created) ? await fs.stat(dir).then((s) => s.mtimeMs, () => Date.now()) : created;
    if (Date.now() - since > LOCK_STALE_MS) {
      await fs.rm(dir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() >= deadline) throw new LangSmithError(`Failed to ${what}: another program holds the lock ${displayProfilesPath(dir)}`);
    await sleep(LOCK_POLL_MS);
  }
  try {
    await fs.writeFile(stamp, `${new Date().toISOString()}\n${owner}\n`, { mode: 0o600 });
  } catch (e) {
    await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw new LangSmithError(`Failed to ${what}: cannot lock ${displayProfilesPath(file)} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    return await work();
  } finally {
    // Only our own lock: one broken as stale by another program while we worked is theirs now.
    const holder = await fs.readFile(stamp, 'utf8').then((t) => t.split('\n')[1]?.trim(), () => undefined);
    if (holder === owner) await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The auth of requests made with a profile's OAuth login; one per client (it keeps the login it last read). */
export class ProfileLoginAuth implements RequestAuth {
  readonly file: string;
  readonly profile: string;
  /** The login as last read or renewed; a true private field, as the tokens are secrets. */
  #login: ProfileLogin | undefined;
  #renewing: Promise<void> | undefined;
  #tokenEndpoint: string | undefined;
  /** How many renewals went to the token endpoint (for tests and diagnostics). */
  renewals = 0;

  constructor(o: ProfileLoginOptions) {
    this.file = path.resolve(o.file);
    this.profile = o.profile;
  }

  /** `profile "x" in ~/.langsmith/config.json`: how errors and logs name this login. */
  get description(): string {
    return `profile "${this.profile}" in ${displayProfilesPath(this.file)}`;
  }

  private read(): ProfileLogin {
    try {
      return readProfileLogin(this.file, this.profile);
    } catch (e) {
      if (e instanceof ProfilesFileError) throw new LangSmithAuthError(`Cannot use the login of ${this.description}: ${e.problems.join('; ')}`, { status: 401 });
      throw e;
    }
  }

  private static due(login: ProfileLogin, now = Date.now()): boolean {
    if (!login.refreshToken) return false;
    if (!login.accessToken) return true;
    return login.expiresAt !== undefined && login.expiresAt <= now + LOGIN_RENEW_LEEWAY_MS;
  }

  async headers(http: HttpClient, signal?: AbortSignal): Promise<Record<string, string>> {
    let login = (this.#login ??= this.read());
    if (ProfileLoginAuth.due(login)) {
      await untilAborted((this.#renewing ??= this.renew(http, login.accessToken, false).finally(() => (this.#renewing = undefined))), signal);
      login = this.#login ?? login;
    }
    if (!login.accessToken) throw new LangSmithAuthError(`Cannot use the login of ${this.description}: it has no access token. Run \`langsmith login\` again, or sign in with an API key.`, { status: 401 });
    return { authorization: `Bearer ${login.accessToken}` };
  }

  async retryAfterUnauthorized(http: HttpClient, sent: Record<string, string>, signal?: AbortSignal): Promise<boolean> {
    const sentToken = sent['authorization']?.replace(/^Bearer /, '');
    // Another call renewed the token since this one was sent: try the new one.
    if (this.#login?.accessToken && this.#login.accessToken !== sentToken) return true;
    await untilAborted((this.#renewing ??= this.renew(http, sentToken, true).finally(() => (this.#renewing = undefined))), signal);
    return this.#login?.accessToken !== undefined && this.#login.accessToken !== sentToken;
  }

  /**
   * Renews the login, under the lock: reads the file again (another program may have renewed it), and asks the
   * token endpoint only when the file still holds `stale` (or a login that is due). `refused`: LangSmith answered
   * 401 to `stale`, so its expiry time is not to be trusted.
   */
  private async renew(http: HttpClient, stale: string | undefined, refused: boolean): Promise<void> {
    const what = `renew the login of ${this.description}`;
    const deadline = Date.now() + RENEW_TIMEOUT_MS;
    const before = this.#login;
    try {
      await withRenewLock(this.file, deadline, what, async () => {
        const onFile = this.read();
        this.#login = onFile;
        // Renewed meanwhile (by another call or program), or not due after all: the file's token is the one.
        if (onFile.accessToken && !ProfileLoginAuth.due(onFile) && (!refused || onFile.accessToken !== stale)) return;
        if (!onFile.refreshToken) {
          throw new LangSmithAuthError(`${refused ? 'LangSmith refused' : 'Cannot renew'} the login of ${this.description}: it has no refresh token. Run \`langsmith login\` again, or sign in with an API key.`, { status: 401 });
        }
        const endpoint = await this.tokenEndpoint(http, onFile.apiUrl);
        this.renewals++;
        let answer: unknown;
        try {
          answer = await http.request({
            method: 'POST',
            path: '',
            absoluteUrl: endpoint,
            contentType: 'application/x-www-form-urlencoded',
            body: new URLSearchParams({ grant_type: 'refresh_token', client_id: OAUTH_CLIENT_ID, refresh_token: onFile.refreshToken }).toString(),
            action: what,
            timeoutMs: Math.max(1, deadline - Date.now()),
          });
        } catch (e) {
          if (e instanceof LangSmithError && e.status !== undefined && e.status >= 400 && e.status < 500 && e.status !== 429) {
            // The answer's OAuth error code (invalid_grant…), never the request's text.
            throw new LangSmithAuthError(`LangSmith refused to renew the login of ${this.description} (${e.status}${e.detail ? ` ${e.detail}` : ''}). Run \`langsmith login\` again, or sign in with an API key.`, {
              status: 401,
              cause: e,
            });
          }
          throw e;
        }
        const token = answer as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown } | null;
        if (!token || typeof token.access_token !== 'string' || !token.access_token) {
          throw new LangSmithError(`Failed to ${what}: the token endpoint's answer has no access token`);
        }
        const renewed: ProfileLogin = {
          apiUrl: onFile.apiUrl,
          accessToken: token.access_token,
          refreshToken: typeof token.refresh_token === 'string' && token.refresh_token ? token.refresh_token : onFile.refreshToken,
          expiresAt: typeof token.expires_in === 'number' && token.expires_in > 0 ? Date.now() + token.expires_in * 1000 : undefined,
        };
        this.#login = renewed;
        await this.writeBack(renewed, what);
      });
    } catch (e) {
      // A renewal that was only due soon, and failed for a reason other than a refusal: the token still works.
      const current = this.#login ?? before;
      if (!refused && !(e instanceof LangSmithAuthError) && current?.accessToken && current.expiresAt !== undefined && current.expiresAt > Date.now()) return;
      throw e;
    }
  }

  /** Writes the renewed pair into the profile, leaving the rest of the file as it is (read again under the lock). */
  private async writeBack(login: ProfileLogin, what: string): Promise<void> {
    let config: { profiles?: Record<string, { oauth?: Record<string, unknown> } & Record<string, unknown>> } & Record<string, unknown>;
    try {
      config = JSON.parse(await fs.readFile(this.file, 'utf8')) as typeof config;
    } catch {
      throw new LangSmithError(`Failed to ${what}: ${displayProfilesPath(this.file)} cannot be read again to save the renewed login`);
    }
    const profile = config.profiles?.[this.profile];
    if (!profile || typeof profile !== 'object') throw new LangSmithError(`Failed to ${what}: the profile is no longer in the file`);
    const oauth = profile.oauth && typeof profile.oauth === 'object' ? profile.oauth : (profile.oauth = {});
    oauth['access_token'] = login.accessToken;
    if (login.refreshToken) oauth['refresh_token'] = login.refreshToken;
    if (login.expiresAt !== undefined) oauth['expires_at'] = new Date(login.expiresAt).toISOString();
    const temp = `${this.file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
    try {
      await fs.writeFile(temp, `${JSON.stringify(config, null, 2)}\n`, { encoding: 'utf8', mode: 0o600 });
      await fs.rename(temp, this.file);
    } catch (e) {
      await fs.rm(temp, { force: true }).catch(() => undefined);
      throw new LangSmithError(`Failed to ${what}: cannot write ${displayProfilesPath(this.file)} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }

  /** The token endpoint, from the metadata of the first issuer that describes itself, else `<api root>/oauth/token`. */
  private async tokenEndpoint(http: HttpClient, apiUrl: string): Promise<string> {
    if (this.#tokenEndpoint) return this.#tokenEndpoint;
    for (const issuer of issuerCandidates(apiUrl)) {
      for (const url of metadataUrls(issuer)) {
        try {
          // No retries (a retry budget of 0): a missing document is normal, and there are fallbacks.
          const doc = await http.request({ path: '', absoluteUrl: url, action: 'read the OAuth metadata', timeoutMs: DISCOVERY_TIMEOUT_MS, retryBudgetMs: 0 });
          const endpoint = trustedTokenEndpoint(doc, issuer);
          if (endpoint) return (this.#tokenEndpoint = endpoint);
        } catch {
          /* not there (404, a web page, no answer): the next place */
        }
      }
    }
    return (this.#tokenEndpoint = `${oauthRoot(apiUrl)}/oauth/token`);
  }
}
