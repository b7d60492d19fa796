// Pure rules for VS Code's proxy settings (`http.proxy`, `http.noProxy`): which requests bypass the proxy, and
// how a proxy URL may be shown. No vscode import, so they are unit-tested directly.

/** The hosts of this machine. VS Code's own proxy support never sends them through a proxy, and neither do we. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

/**
 * Whether a request to `url` skips the proxy: loopback hosts always; otherwise when an `http.noProxy` entry
 * matches. Entries (as in VS Code and `NO_PROXY`): `*` (everything), a host (`example.com`, also matching its
 * subdomains), `.example.com` / `*.example.com` (subdomains and the domain), an optional `:port`, an IP address.
 */
export function bypassesProxy(url: URL, noProxy: readonly string[]): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (isLoopbackHost(host)) return true;
  const port = url.port || defaultPort(url.protocol);
  for (const raw of noProxy) {
    let entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    let entryPort: string | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) {
      entry = bracketed[1];
      entryPort = bracketed[2];
    } else {
      const m = /^([^:]+):(\d+)$/.exec(entry);
      if (m) {
        entry = m[1];
        entryPort = m[2];
      }
    }
    if (entryPort && entryPort !== port) continue;
    const domain = entry.replace(/^\*?\./, '');
    if (host === domain || host.endsWith(`.${domain}`)) return true;
  }
  return false;
}

/** Checks an `http.proxy` value; returns the URL or a message naming the setting. */
export function parseProxyUrl(value: string): { url: URL } | { error: string } {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return { error: `The proxy in the "http.proxy" setting is not a URL: ${redactProxy(value)}. Use e.g. http://proxy.example.com:8080.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { error: `The proxy in the "http.proxy" setting must be an http:// or https:// URL, not ${url.protocol}//…` };
  }
  return { url };
}

/** A proxy URL without its user name and password, fit for a log line. */
export function redactProxy(value: string): string {
  try {
    const url = new URL(value.trim());
    const credentials = url.username || url.password ? '…@' : '';
    return `${url.protocol}//${credentials}${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return value.replace(/\/\/[^@/]*@/, '//…@');
  }
}

/** Whether a PEM bundle holds at least one certificate. */
export function hasPemCertificate(text: string): boolean {
  return /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.test(text);
}
