// How the extension reaches LangSmith: through VS Code's configured proxy (`http.proxy`, `http.proxyStrictSSL`,
// `http.noProxy`, `http.proxyAuthorization`, `http.proxySupport`) and trusting an extra CA bundle
// (`langsmith.caFile`) for LangSmith calls only.
//
// With neither a proxy nor a CA file set, the client uses the extension host's global fetch, which recent VS
// Code versions already route through the system proxy. As soon as one of them is set, the client gets its own
// undici fetch with a dispatcher built from these settings: it works the same on every supported VS Code version,
// and the extra CA never leaks into the rest of the extension host. Loopback hosts never use the proxy (as in
// VS Code itself), so the local server keeps working behind a corporate proxy.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Dispatcher } from 'undici';
import * as vscode from 'vscode';
import { bypassesProxy, hasPemCertificate, parseProxyUrl, redactProxy } from '../common/proxy';
import { lazy } from '../common/lazy';

export const NetworkSettingKeys = {
  caFile: 'langsmith.caFile',
  proxy: 'http.proxy',
  proxyStrictSSL: 'http.proxyStrictSSL',
  noProxy: 'http.noProxy',
  proxyAuthorization: 'http.proxyAuthorization',
  proxySupport: 'http.proxySupport',
} as const;

export interface NetworkSettings {
  /** `http.proxy`, empty when unset or when `http.proxySupport` is "off". */
  proxy: string;
  proxyStrictSSL: boolean;
  noProxy: string[];
  proxyAuthorization: string | undefined;
  /** `langsmith.caFile`, with `~` expanded; empty when unset. */
  caFile: string;
}

/** A setting stops the extension from connecting (a CA file that cannot be read, a malformed proxy URL). */
export class ConnectionSettingError extends Error {
  constructor(
    message: string,
    readonly setting: string,
  ) {
    super(message);
    this.name = 'ConnectionSettingError';
  }
}

export function readNetworkSettings(): NetworkSettings {
  const http = vscode.workspace.getConfiguration('http');
  const proxySupport = http.get<string>('proxySupport', 'override');
  const caFile = vscode.workspace.getConfiguration('langsmith').get<string>('caFile', '').trim();
  return {
    proxy: proxySupport === 'off' ? '' : (http.get<string>('proxy', '') ?? '').trim(),
    proxyStrictSSL: http.get<boolean>('proxyStrictSSL', true) !== false,
    noProxy: (http.get<string[]>('noProxy', []) ?? []).filter((e) => typeof e === 'string'),
    proxyAuthorization: http.get<string | null>('proxyAuthorization') || undefined,
    caFile: /^~(?=$|[\\/])/.test(caFile) ? path.join(os.homedir(), caFile.slice(1)) : caFile,
  };
}

/** Part of the client cache key: a change of any of these builds a new client. */
export function networkKey(settings: NetworkSettings): string {
  return JSON.stringify([settings.proxy, settings.proxyStrictSSL, settings.noProxy, settings.proxyAuthorization ?? '', settings.caFile]);
}

/** Whether a configuration change touches how the extension connects. */
export function affectsNetwork(e: vscode.ConfigurationChangeEvent): boolean {
  return Object.values(NetworkSettingKeys).some((key) => e.affectsConfiguration(key));
}

export interface NetworkFetch {
  /** Undefined: the extension host's global fetch is used. */
  fetch: typeof fetch | undefined;
  /** One line for the log (never with proxy credentials). */
  description: string;
  close(): void;
}

function readCa(file: string): string {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? vscode.l10n.t('the file does not exist')
        : code === 'EACCES'
          ? vscode.l10n.t('permission denied')
          : code === 'EISDIR'
            ? vscode.l10n.t('it is a folder')
            : (code ?? String(err));
    throw new ConnectionSettingError(vscode.l10n.t('The CA file in the "langsmith.caFile" setting cannot be read: {0} ({1}).', file, why), NetworkSettingKeys.caFile);
  }
  if (!hasPemCertificate(text)) {
    throw new ConnectionSettingError(vscode.l10n.t('The CA file in the "langsmith.caFile" setting holds no PEM certificate: {0}.', file), NetworkSettingKeys.caFile);
  }
  return text;
}

/**
 * The fetch for LangSmith calls under these settings; throws ConnectionSettingError when a setting is unusable.
 * undici (a large module) is loaded only here, when a proxy or a CA file asks for it.
 */
export async function createNetworkFetch(settings: NetworkSettings): Promise<NetworkFetch> {
  if (!settings.proxy && !settings.caFile) return { fetch: undefined, description: 'VS Code network settings (no proxy or CA file set)', close() {} };

  // The CA is added to Node's bundled roots, for these requests only.
  const ca = settings.caFile ? [...(await import('node:tls')).rootCertificates, readCa(settings.caFile)] : undefined;
  const { Agent, ProxyAgent, fetch: undiciFetch } = await lazy.undici();
  const direct = new Agent(ca ? { connect: { ca } } : {});
  let proxied: Dispatcher | undefined;
  if (settings.proxy) {
    const parsed = parseProxyUrl(settings.proxy);
    if ('error' in parsed) throw new ConnectionSettingError(parsed.error, NetworkSettingKeys.proxy);
    const strict = settings.proxyStrictSSL;
    proxied = new ProxyAgent({
      uri: parsed.url.toString(),
      ...(settings.proxyAuthorization ? { token: settings.proxyAuthorization } : {}),
      // http.proxyStrictSSL: false also accepts the certificates a TLS-intercepting proxy presents.
      proxyTls: { rejectUnauthorized: strict, ...(ca ? { ca } : {}) },
      requestTls: { rejectUnauthorized: strict, ...(ca ? { ca } : {}) },
    });
  }
  const doFetch = (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const dispatcher = proxied && !bypassesProxy(url, settings.noProxy) ? proxied : direct;
    return undiciFetch(input as Parameters<typeof undiciFetch>[0], { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher });
  };
  const parts = [
    settings.proxy ? `proxy ${redactProxy(settings.proxy)}${settings.proxyStrictSSL ? '' : ' (proxyStrictSSL off)'}` : 'no proxy',
    settings.caFile ? `extra CA from ${settings.caFile}` : undefined,
  ].filter(Boolean);
  return {
    fetch: doFetch as unknown as typeof fetch,
    description: parts.join(', '),
    close() {
      void direct.close().catch(() => undefined);
      void proxied?.close().catch(() => undefined);
    },
  };
}
