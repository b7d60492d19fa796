// The page every webview app gets (src/webviews/html.ts), for each descriptor: a strict CSP (nothing by default, no
// network, scripts only with this load's nonce or from the extension's webview folder, no inline code, no eval), a
// fresh nonce of at least 128 bits on every render, and one script tag that carries it.
import assert from 'node:assert/strict';
import { fakeWebview, StubUri } from '../harness/vscodeStub';
import { renderWebviewHtml } from '../../src/webviews/html';
import { Panels } from '../../src/webviews/descriptors';

const ORIGIN = 'https://file+.vscode-resource.vscode-cdn.net';
const EXTENSION = StubUri.file('/ext/langsmith-workbench');

function render(app: string, title: string, hasCss: boolean): string {
  return renderWebviewHtml(fakeWebview(ORIGIN) as never, EXTENSION as never, app, title, hasCss);
}

/** The CSP of a page as directive → sources; fails unless there is exactly one CSP meta tag. */
function csp(html: string): Map<string, string[]> {
  const tags = [...html.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/gi)];
  assert.equal(tags.length, 1, 'one CSP meta tag');
  const out = new Map<string, string[]>();
  for (const part of tags[0]![1]!.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (!name) continue;
    assert.ok(!out.has(name), `${name} is given once`);
    out.set(name, sources);
  }
  return out;
}

function nonceOf(policy: Map<string, string[]>): string {
  const nonces = policy.get('script-src')!.filter((s) => s.startsWith("'nonce-"));
  assert.equal(nonces.length, 1, 'script-src names one nonce');
  return nonces[0]!.slice("'nonce-".length, -1);
}

describe('webview page: CSP and nonce (src/webviews/html.ts)', () => {
  for (const descriptor of Object.values(Panels)) {
    it(`${descriptor.app}: strict CSP, a fresh nonce each render, the script tag carries it`, () => {
      const pages = [render(descriptor.app, descriptor.app, descriptor.hasCss), render(descriptor.app, descriptor.app, descriptor.hasCss)];
      const nonces: string[] = [];
      for (const html of pages) {
        const policy = csp(html);
        assert.deepEqual(policy.get('default-src'), ["'none'"]);
        assert.deepEqual(policy.get('connect-src'), ["'none'"], 'no network access from the page');
        assert.deepEqual(policy.get('base-uri'), ["'none'"]);
        assert.deepEqual(policy.get('form-action'), ["'none'"]);
        const nonce = nonceOf(policy);
        assert.deepEqual(policy.get('script-src'), [`'nonce-${nonce}'`, ORIGIN], 'scripts: this load’s nonce and the webview folder only');
        assert.deepEqual(policy.get('style-src'), [`'nonce-${nonce}'`, ORIGIN], 'styles: the nonce and the webview folder only');
        assert.deepEqual(policy.get('font-src'), [ORIGIN]);
        for (const [name, sources] of policy) {
          for (const bad of ["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "'wasm-unsafe-eval'", '*', 'http:', "'strict-dynamic'"]) {
            assert.ok(!sources.includes(bad), `${name} allows ${bad}`);
          }
        }
        // At least 128 bits from a CSPRNG, base64: ≥ 16 bytes.
        assert.match(nonce, /^[A-Za-z0-9+/]+={0,2}$/, 'the nonce is base64');
        assert.ok(Buffer.from(nonce, 'base64').length >= 16, `the nonce has ${Buffer.from(nonce, 'base64').length * 8} bits`);
        assert.ok(html.includes(`<meta property="csp-nonce" content="${nonce}">`), 'the toolkit reads the same nonce');
        // One script tag: the app's bundle from the webview folder, with the nonce, and no inline code.
        const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
        assert.equal(scripts.length, 1, 'one script tag');
        assert.equal(scripts[0]![2], '', 'no inline script');
        assert.ok(scripts[0]![1]!.includes(`nonce="${nonce}"`), 'the script tag carries the nonce');
        assert.ok(scripts[0]![1]!.includes(`src="${ORIGIN}/${descriptor.app}.js"`), 'the script is the app’s bundle');
        assert.equal(/<link\b[^>]*rel="stylesheet"/.test(html), descriptor.hasCss);
        if (descriptor.hasCss) assert.ok(html.includes(`<link rel="stylesheet" nonce="${nonce}" href="${ORIGIN}/${descriptor.app}.css">`), 'the stylesheet carries the nonce');
        assert.ok(!/\son[a-z]+=/i.test(html), 'no event-handler attribute');
        nonces.push(nonce);
      }
      assert.notEqual(nonces[0], nonces[1], 'each render has its own nonce');
    });
  }

  it('never repeats a nonce (1,000 renders)', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) seen.add(nonceOf(csp(render('hello', 'x', false))));
    assert.equal(seen.size, 1000);
  });

  it('writes a hostile title as text: no markup, no second script', () => {
    const html = render('hello', `</title><script>alert(1)</script><img src=x onerror=alert(2)>"'&`, true);
    assert.equal([...html.matchAll(/<script\b/gi)].length, 1);
    assert.ok(!html.includes('<img'));
    assert.match(html, /<title>&#60;\/title&#62;&#60;script&#62;alert\(1\)&#60;\/script&#62;&#60;img src=x onerror=alert\(2\)&#62;&#34;&#39;&#38;<\/title>/);
    csp(html);
  });
});
