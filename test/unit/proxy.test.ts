import * as assert from 'node:assert/strict';
import { bypassesProxy, hasPemCertificate, isLoopbackHost, parseProxyUrl, redactProxy } from '../../src/common/proxy';

describe('proxy rules', () => {
  const bypass = (url: string, noProxy: string[]) => bypassesProxy(new URL(url), noProxy);

  it('treats loopback hosts as local', () => {
    for (const h of ['localhost', 'LOCALHOST', 'api.localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]']) assert.ok(isLoopbackHost(h), h);
    for (const h of ['example.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com']) assert.ok(!isLoopbackHost(h), h);
  });

  it('never sends loopback through the proxy, whatever http.noProxy says', () => {
    assert.ok(bypass('http://127.0.0.1:1984/info', []));
    assert.ok(bypass('http://localhost:1984/info', []));
    assert.ok(bypass('http://[::1]:1984/info', []));
    assert.ok(!bypass('https://api.smith.langchain.com/info', []));
  });

  it('matches http.noProxy entries: hosts with their subdomains, leading dot or *., ports, IPs and *', () => {
    assert.ok(bypass('https://langsmith.corp.example/api/v1', ['corp.example']));
    assert.ok(bypass('https://corp.example/api/v1', ['corp.example']));
    assert.ok(!bypass('https://notcorp.example/api/v1', ['corp.example']));
    assert.ok(bypass('https://a.corp.example', ['.corp.example']));
    assert.ok(bypass('https://a.corp.example', ['*.corp.example']));
    assert.ok(bypass('https://corp.example:8443', ['corp.example:8443']));
    assert.ok(!bypass('https://corp.example', ['corp.example:8443']), 'the default port 443 is not 8443');
    assert.ok(bypass('https://corp.example', ['corp.example:443']));
    assert.ok(bypass('http://10.1.2.3:8080', ['10.1.2.3']));
    assert.ok(bypass('http://[2001:db8::1]:8080', ['[2001:db8::1]']));
    assert.ok(bypass('https://anything.example', ['*']));
    assert.ok(!bypass('https://anything.example', ['', '  ']));
    assert.ok(bypass('https://API.Example.com', ['api.example.COM']));
  });

  it('accepts http(s) proxy URLs and names the setting otherwise', () => {
    assert.ok('url' in parseProxyUrl('http://proxy.example.com:8080'));
    assert.ok('url' in parseProxyUrl('https://user:pw@proxy.example.com'));
    const notUrl = parseProxyUrl('proxy.example.com:8080');
    assert.ok('error' in notUrl && notUrl.error.includes('"http.proxy"'), JSON.stringify(notUrl));
    const socks = parseProxyUrl('socks5://proxy.example.com:1080');
    assert.deepEqual(socks, { error: 'The proxy in the "http.proxy" setting must be an http:// or https:// URL, not socks5://…' });
  });

  it('never shows proxy credentials', () => {
    assert.equal(redactProxy('http://user:secret@proxy.example.com:8080/'), 'http://…@proxy.example.com:8080');
    assert.equal(redactProxy('http://proxy.example.com:8080'), 'http://proxy.example.com:8080');
    assert.ok(!redactProxy('not a url //user:secret@host').includes('secret'));
  });

  it('recognises a PEM certificate', () => {
    assert.ok(hasPemCertificate('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'));
    assert.ok(!hasPemCertificate('-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n'));
    assert.ok(!hasPemCertificate(''));
  });
});
