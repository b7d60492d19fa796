// A stand-in for the `vscode` module, for plain-Node tests of host code that needs only Uri (the webview page
// builder in src/webviews/html.ts). Importing this file makes `require('vscode')` return the stub; import it
// before the module under test.
//
//   import '../harness/vscodeStub';
//   import { renderWebviewHtml } from '../../src/webviews/html';
import Module from 'node:module';
import path from 'node:path';

export class StubUri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
  ) {}

  static file(p: string): StubUri {
    return new StubUri('file', p);
  }

  static joinPath(base: StubUri, ...segments: string[]): StubUri {
    return new StubUri(base.scheme, path.posix.join(base.path, ...segments));
  }

  toString(): string {
    return `${this.scheme}://${this.path}`;
  }
}

/** vscode.l10n.t in English: the message with {0}, {1}… filled in. */
const l10n = { t: (message: string, ...args: unknown[]) => message.replace(/\{(\d+)\}/g, (m, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : m)) };

export const vscodeStub = { Uri: StubUri, l10n };

/** A webview as renderWebviewHtml uses it: its resource origin, and URIs mapped under it by file name. */
export function fakeWebview(origin: string): { cspSource: string; asWebviewUri(uri: StubUri): { toString(): string } } {
  return { cspSource: origin, asWebviewUri: (uri) => ({ toString: () => `${origin}/${path.posix.basename(uri.path)}` }) };
}

const INSTALLED = Symbol.for('lsw.vscodeStub');
const registry = globalThis as unknown as Record<symbol, boolean>;
if (!registry[INSTALLED]) {
  registry[INSTALLED] = true;
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = loader._load;
  loader._load = function (this: unknown, request: string, ...rest: unknown[]) {
    return request === 'vscode' ? vscodeStub : load.call(this, request, ...rest);
  };
}
