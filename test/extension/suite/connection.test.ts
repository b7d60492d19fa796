// The connection through VS Code's proxy settings and with a private CA (`langsmith.caFile`), inside the real
// extension host. A tiny forwarding proxy runs in the test (loopback only, it counts what it forwards), and a TLS
// front with a self-signed certificate (test/harness/tlsFront.ts) stands in for a self-hosted LangSmith behind a private CA.
//
// What the extension host does on its own (VS Code 1.139, checked here): the global fetch is patched to follow
// `http.proxy`, but loopback hosts always go direct, whatever `http.noProxy` says. The extension keeps that rule.
// So the proxy tests name the local server by a host only the proxy knows (`*.proxy.test`, a reserved TLD that
// never resolves): a tree that loads there can only have come through the proxy. On this VS Code the patched global
// fetch would follow `http.proxy` for such a host as well; the extension does not rely on that (older VS Code
// versions it supports have no such patch, and the patch knows nothing of `langsmith.caFile`), and the CA test
// through the proxy below can only pass through the extension's own proxy route.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkbenchApi } from '../../../src/extension';
import { startTlsFront } from '../../harness/tlsFront';
import { raw } from './support';
import type { TreeNode } from '../../../src/views/treeNode';

const EXTENSION_ID = 'langsmith-workbench.langsmith-workbench';
const endpoint = process.env.LANGSMITH_ENDPOINT ?? '';
const serverPort = Number(new URL(endpoint || 'http://127.0.0.1:1').port);
/** Host names only the test proxy resolves (to 127.0.0.1). */
const PROXY_ONLY_HOST = 'langsmith.proxy.test';

type AnyNode = TreeNode & Record<string, any>;

interface TestProxy {
  url: string;
  /** "CONNECT host:port" and "GET http://…" lines, in order. */
  readonly seen: string[];
  close(): Promise<void>;
}

/** A forwarding HTTP proxy on 127.0.0.1 that only ever connects to 127.0.0.1: CONNECT tunnels and absolute-form requests. */
async function startProxy(): Promise<TestProxy> {
  const seen: string[] = [];
  const allowed = (host: string) => host === '127.0.0.1' || host === 'localhost' || host.endsWith('.proxy.test');
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = URL.canParse(req.url ?? '') ? new URL(req.url!) : undefined;
    if (!target || !allowed(target.hostname)) {
      res.writeHead(403).end('loopback only');
      return;
    }
    const upstream = http.request(
      { host: '127.0.0.1', port: target.port || 80, path: `${target.pathname}${target.search}`, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const m = /^(.+):(\d+)$/.exec(req.url ?? '');
    if (!m || !allowed(m[1])) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = net.connect(Number(m[2]), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}


describe('connection: VS Code proxy settings and a private CA', function () {
  this.timeout(60_000);
  let workbench: WorkbenchApi;
  const http_ = () => vscode.workspace.getConfiguration('http');
  const langsmith = () => vscode.workspace.getConfiguration('langsmith');
  const label = (node: TreeNode) => {
    const l = node.treeItem().label;
    return typeof l === 'string' ? l : (l?.label ?? '');
  };
  const datasets = async () => {
    workbench.views.datasets.refresh();
    return (await workbench.views.datasets.provider.getChildren()) as AnyNode[];
  };
  /** Runs `work` with the endpoint the environment names switched to `url` (the environment's key goes with it). */
  const withEnvironmentEndpoint = async <T>(url: string, work: () => Promise<T>): Promise<T> => {
    const saved = process.env.LANGSMITH_ENDPOINT;
    process.env.LANGSMITH_ENDPOINT = url;
    try {
      return await work();
    } finally {
      process.env.LANGSMITH_ENDPOINT = saved;
    }
  };
  const restore = async () => {
    await http_().update('proxy', undefined, vscode.ConfigurationTarget.Global);
    await http_().update('noProxy', undefined, vscode.ConfigurationTarget.Global);
    await http_().update('proxyStrictSSL', undefined, vscode.ConfigurationTarget.Global);
    await langsmith().update('caFile', undefined, vscode.ConfigurationTarget.Global);
  };

  before(async () => {
    assert.ok(endpoint.startsWith('http://127.0.0.1:'), 'the runner passes the local server in LANGSMITH_ENDPOINT');
    workbench = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as WorkbenchApi;
  });
  afterEach(restore);

  it('loads a tree through the proxy set in http.proxy, and stops using it when the setting is cleared', async () => {
    const proxy = await startProxy();
    try {
      await withEnvironmentEndpoint(`http://${PROXY_ONLY_HOST}:${serverPort}`, async () => {
        await http_().update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
        await http_().update('noProxy', [], vscode.ConfigurationTarget.Global);
        const nodes = await datasets();
        assert.ok(nodes.some((d) => label(d) === 'demo-support-qa'), `datasets through the proxy: ${nodes.map(label).join(', ')}`);
        assert.ok(proxy.seen.length > 0, 'the requests went through the proxy');
        assert.ok(proxy.seen.every((line) => line.includes(`${PROXY_ONLY_HOST}:${serverPort}`)), proxy.seen.join('\n'));
        assert.equal(workbench.clients.health, 'connected');

        // Writes too, with a JSON and a multipart body: upload a CSV, then delete the dataset.
        const client = await workbench.clients.client();
        const uploaded = await client.datasets.uploadCsv({ csv: 'question,answer\nhi,hello\n', inputKeys: ['question'], outputKeys: ['answer'], name: 'ext-proxy-upload' });
        assert.equal(uploaded.name, 'ext-proxy-upload');
        await client.datasets.delete({ datasetId: uploaded.id });
        // The made-up host resolves only through the proxy (see the noProxy test), so these writes went through
        // it; the proxy may carry them in tunnels it opened for the tree, so no new CONNECT need show.
        assert.ok(proxy.seen.every((line) => line.includes(`${PROXY_ONLY_HOST}:${serverPort}`)), proxy.seen.join('\n'));
      });
      const gone = await raw('GET', `/datasets?name=ext-proxy-upload`);
      assert.deepEqual(gone.body, [], 'the server saw the upload and the delete');
      // Back on the real endpoint, without the proxy: nothing more goes through it.
      await http_().update('proxy', undefined, vscode.ConfigurationTarget.Global);
      const before = proxy.seen.length;
      assert.ok((await datasets()).some((d) => label(d) === 'demo-support-qa'));
      assert.equal(proxy.seen.length, before, 'with http.proxy cleared the proxy sees nothing');
    } finally {
      await proxy.close();
    }
  });

  it('goes direct for hosts listed in http.noProxy', async () => {
    const proxy = await startProxy();
    try {
      await withEnvironmentEndpoint(`http://${PROXY_ONLY_HOST}:${serverPort}`, async () => {
        // noProxy first: set the other way round, the views reload in between with the proxy applying to
        // this host, and that reload rightly goes through it.
        await http_().update('noProxy', ['.proxy.test'], vscode.ConfigurationTarget.Global);
        await http_().update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
        const nodes = await datasets();
        assert.equal(nodes.length, 1, nodes.map(label).join(', '));
        assert.match(label(nodes[0]), /^Could not load: .*ENOTFOUND/, 'direct, the made-up host does not resolve');
        assert.deepEqual(proxy.seen, [], 'the proxy saw nothing');
      });
    } finally {
      await proxy.close();
    }
  });

  it('never sends a loopback endpoint through the proxy (as VS Code itself does), even with http.noProxy empty', async () => {
    const proxy = await startProxy();
    try {
      await http_().update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
      await http_().update('noProxy', [], vscode.ConfigurationTarget.Global);
      assert.ok((await datasets()).some((d) => label(d) === 'demo-support-qa'));
      assert.deepEqual(proxy.seen, [], 'the local server at 127.0.0.1 is reached directly');
    } finally {
      await proxy.close();
    }
  });

  it('names the setting and the path when the CA file cannot be read, and recovers when it is cleared', async () => {
    const missing = path.join(os.tmpdir(), 'lsw-no-such-dir', 'private-ca.pem');
    await langsmith().update('caFile', missing, vscode.ConfigurationTarget.Global);
    const nodes = await datasets();
    assert.equal(nodes.length, 1, nodes.map(label).join(', '));
    assert.equal(label(nodes[0]), `Could not load: The CA file in the "langsmith.caFile" setting cannot be read: ${missing} (the file does not exist).`);
    assert.equal(workbench.clients.health, 'offline');
    await assert.rejects(workbench.clients.client(), /langsmith\.caFile.*lsw-no-such-dir/);

    await langsmith().update('caFile', undefined, vscode.ConfigurationTarget.Global);
    assert.ok((await datasets()).some((d) => label(d) === 'demo-support-qa'));
  });

  it('trusts a private CA from langsmith.caFile: without it TLS fails, with it the tree loads, directly and through the proxy; proxyStrictSSL off accepts it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-tls-'));
    const front = await startTlsFront(dir, serverPort, [PROXY_ONLY_HOST]);
    const proxy = await startProxy();
    try {
      await withEnvironmentEndpoint(`https://127.0.0.1:${front.port}`, async () => {
        const refused = await datasets();
        assert.equal(refused.length, 1);
        assert.match(label(refused[0]), /^Could not load: /);
        assert.ok(!refused.some((d) => label(d) === 'demo-support-qa'), 'an unknown CA is not trusted');

        await langsmith().update('caFile', front.caFile, vscode.ConfigurationTarget.Global);
        const trusted = await datasets();
        assert.ok(trusted.some((d) => label(d) === 'demo-support-qa'), `with the CA file: ${trusted.map(label).join(', ')}`);
      });

      await withEnvironmentEndpoint(`https://${PROXY_ONLY_HOST}:${front.port}`, async () => {
        await http_().update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
        await http_().update('noProxy', [], vscode.ConfigurationTarget.Global);
        const nodes = await datasets();
        assert.ok(nodes.some((d) => label(d) === 'demo-support-qa'), `through the proxy with the CA file: ${nodes.map(label).join(', ')}`);
        assert.ok(proxy.seen.includes(`CONNECT ${PROXY_ONLY_HOST}:${front.port}`), proxy.seen.join('\n'));
      });

      // Without the CA file, http.proxyStrictSSL: false accepts what a TLS-intercepting proxy would present.
      await langsmith().update('caFile', undefined, vscode.ConfigurationTarget.Global);
      await http_().update('proxyStrictSSL', false, vscode.ConfigurationTarget.Global);
      await withEnvironmentEndpoint(`https://${PROXY_ONLY_HOST}:${front.port}`, async () => {
        const nodes = await datasets();
        assert.ok(nodes.some((d) => label(d) === 'demo-support-qa'), `proxyStrictSSL off: ${nodes.map(label).join(', ')}`);
      });
    } finally {
      await restore();
      await proxy.close();
      await front.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
