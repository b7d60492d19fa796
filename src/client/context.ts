import coerce from 'semver/functions/coerce';
import gte from 'semver/functions/gte';
import valid from 'semver/functions/valid';
import { HttpClient } from './http';
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

/**
 * Whether the server reports a version of at least `min`. A server that gives no usable version counts as older:
 * the caller then keeps to the API every version serves.
 */
export function serverVersionAtLeast(info: ServerInfo, min: string): boolean {
  const v = parseServerVersion(info.version);
  return v !== null && gte(v, min);
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

  /**
   * Whether the server's version (from /info) is at least `min`. When /info cannot be read the answer is false,
   * so that the call falls back to the older API rather than failing on the version check; the caller's own
   * abort still ends it.
   */
  async versionAtLeast(min: string, signal?: AbortSignal): Promise<boolean> {
    try {
      return serverVersionAtLeast(await this.info(signal), min);
    } catch (e) {
      if (signal?.aborted) throw e;
      return false;
    }
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
