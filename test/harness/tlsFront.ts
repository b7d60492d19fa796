// Test helper: a TLS front for a local HTTP server, with a fresh self-signed certificate (made with openssl)
// that stands in for a self-hosted LangSmith behind a private CA. It forwards bytes, so the server behind
// it answers as it always does.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import * as tls from 'node:tls';

export interface TlsFront {
  port: number;
  /** The certificate (its own CA) in PEM, as a file. */
  caFile: string;
  close(): Promise<void>;
}

/** Starts a TLS front in `dir` for 127.0.0.1:`upstreamPort`, valid for 127.0.0.1 and the given host names. */
export async function startTlsFront(dir: string, upstreamPort: number, dnsNames: string[] = []): Promise<TlsFront> {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  const altNames = ['IP:127.0.0.1', ...dnsNames.map((d) => `DNS:${d}`)].join(',');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1',
    '-subj', '/CN=LangSmith Workbench test CA', '-addext', `subjectAltName=${altNames}`,
    '-addext', 'basicConstraints=critical,CA:TRUE',
  ], { stdio: 'pipe' });
  const sockets = new Set<net.Socket>();
  const server = tls.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (client) => {
    const upstream = net.connect(upstreamPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    caFile: cert,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
