import coerce from 'semver/functions/coerce';
import gte from 'semver/functions/gte';
import valid from 'semver/functions/valid';
import { HttpClient, type RequestOptions } from './http';
import { LangSmithConflictError } from './errors';
import { ServerInfoSchema, SettingsSchema, type ServerInfo, type TenantSettings } from './schemas';

/** The semver package refuses versions longer than this; longer ones count as unknown. */
export const SEMVER_MAX_LENGTH = 256;
/** First LangSmith version whose /info may omit the flag yet serves the multipart example endpoints. */
export const MULTIPART_EXAMPLES_MIN_VERSION = '0.10.0';

/** A server version usable for comparisons, or null (missing, too long, not semver). */
export function parseServerVersion(version: string | null | undefined): string | null {
  if (!version || version.length > SEMVER_MAX_LENGTH) return null;
  return valid(coerce(version, { includePrerelease: true }) ?? version) ?? null;
}

/**
 * Whether the server accepts the multipart example endpoints: its explicit instance flag when it
 * gives one, otherwise its version compared with {@link MULTIPART_EXAMPLES_MIN_VERSION}.
 */
export function multipartExamplesSupported(info: ServerInfo): boolean {
  const flag = info.instance_flags?.['dataset_examples_multipart_enabled'];
  if (typeof flag === 'boolean') return flag;
  const v = parseServerVersion(info.version);
  return v !== null && gte(v, MULTIPART_EXAMPLES_MIN_VERSION);
}

/** What every resource shares: the transport, the web host and a few per-client caches. */
export class ClientContext {
  private infoPromise?: Promise<ServerInfo>;
  private settingsPromise?: Promise<TenantSettings>;

  constructor(
    readonly http: HttpClient,
    readonly webUrl: string,
  ) {}

  /** GET /info, once per client (a failure is not cached). */
  info(signal?: AbortSignal): Promise<ServerInfo> {
    if (!this.infoPromise) {
      this.infoPromise = this.http
        .request({ path: '/info', action: 'read server info', schema: ServerInfoSchema, signal, timeoutMs: Math.min(this.http.timeoutMs, 10_000) })
        .catch((e: unknown) => {
          this.infoPromise = undefined;
          throw e;
        });
    }
    return this.infoPromise;
  }

  /** GET /settings (the caller's tenant: id, handle), once per client. */
  settings(signal?: AbortSignal): Promise<TenantSettings> {
    if (!this.settingsPromise) {
      this.settingsPromise = this.http
        .request({ path: '/settings', action: 'read settings', schema: SettingsSchema, signal })
        .catch((e: unknown) => {
          this.settingsPromise = undefined;
          throw e;
        });
    }
    return this.settingsPromise;
  }
}

/**
 * Sends a create that carries its own id, so repeating it (on a lost answer or a retryable status) never
 * makes a duplicate. A 409 may then be our own earlier attempt, which landed although its answer was lost:
 * when reading the id back finds it, that is the answer; otherwise the conflict stands. An id generated
 * here cannot have existed before, so any 409 is checked; a caller's id may name something that already
 * existed, so a 409 is only taken for our own create when the request was repeated.
 */
export async function createWithId<T>(
  http: HttpClient,
  request: RequestOptions<T>,
  id: { generated: boolean },
  readBack: () => Promise<T | null>,
): Promise<T> {
  let repeated = false;
  try {
    return await http.request({
      ...request,
      idempotent: true,
      onRetry: () => {
        repeated = true;
      },
    });
  } catch (e) {
    if (e instanceof LangSmithConflictError && (id.generated || repeated)) {
      const existing = await readBack().catch(() => {
        // Cancelled meanwhile: that is the outcome, not the conflict. Any other failure leaves the conflict.
        if (request.signal?.aborted) throw request.signal.reason;
        return null;
      });
      if (existing) return existing;
    }
    throw e;
  }
}
