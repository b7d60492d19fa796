// The one-way doors of ARCHITECTURE.md, checked on the source text of every module.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) return [];
  return fs.readdirSync(abs, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|tsx|mts|cts|js|mjs)$/.test(f) && !f.includes('node_modules'))
    .map((f) => path.join(abs, f));
}

/** Every module specifier a file imports, requires or dynamically imports. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs: string[] = [];
  for (const m of text.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*['"]([^'"]+)['"]|(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    specs.push(m[1] ?? m[2] ?? m[3]);
  }
  return specs;
}

function resolvedTarget(file: string, spec: string): string {
  return spec.startsWith('.') ? path.relative(root, path.resolve(path.dirname(file), spec)) : spec;
}

function violations(dir: string, isForbidden: (target: string) => boolean): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(dir)) {
    for (const spec of importsOf(file)) {
      const target = resolvedTarget(file, spec);
      if (isForbidden(target)) found.push(`${path.relative(root, file)} imports ${spec}`);
    }
  }
  return found;
}

describe('module boundaries', () => {
  it('finds imports (the checker itself works)', () => {
    assert.ok(importsOf(path.join(root, 'src/extension.ts')).includes('vscode'));
    assert.ok(sourceFiles('src/protocol').length > 0);
  });

  it('src/client and src/protocol never import vscode', () => {
    assert.deepEqual(violations('src/client', (t) => t === 'vscode'), []);
    assert.deepEqual(violations('src/protocol', (t) => t === 'vscode'), []);
  });

  it('src/client never imports the extension host side', () => {
    const hostDirs = ['src/auth', 'src/views', 'src/commands', 'src/webviews', 'src/prompts', 'src/common', 'src/extension'];
    assert.deepEqual(violations('src/client', (t) => hostDirs.some((d) => t === d || t.startsWith(`${d}/`))), []);
  });

  it('webview-ui imports nothing from the host but src/protocol, and never vscode', () => {
    const found = violations('webview-ui/src', (t) => t === 'vscode' || (t.startsWith('src/') && !t.startsWith('src/protocol')) || t === 'src');
    assert.deepEqual(found, []);
  });

  it('only webview-ui/src/common/components imports @vscode/webview-ui-toolkit', () => {
    const found = violations('webview-ui/src', (t) => t.startsWith('@vscode/webview-ui-toolkit'))
      .filter((v) => !v.startsWith('webview-ui/src/common/components/'));
    assert.deepEqual(found, []);
  });

  it('only webview-ui/src/common/vscode.ts calls acquireVsCodeApi', () => {
    const callers = sourceFiles('webview-ui/src')
      .filter((f) => /acquireVsCodeApi\s*(<[^>]*>)?\s*\(/.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(root, f));
    assert.deepEqual(callers, ['webview-ui/src/common/vscode.ts']);
  });

  it('server never imports src', () => {
    assert.deepEqual(violations('server', (t) => t === 'src' || t.startsWith('src/') || t === 'vscode'), []);
  });

  it('webviews never render server text as HTML', () => {
    const found = sourceFiles('webview-ui/src').filter((f) => /dangerouslySetInnerHTML|\.innerHTML\s*=/.test(fs.readFileSync(f, 'utf8')));
    assert.deepEqual(found, []);
  });
});
