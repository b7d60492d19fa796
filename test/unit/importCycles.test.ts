// No import cycles in product code, type-only imports included. ESLint's import-x/no-cycle (the lint layer) follows
// the imports that stay at run time; an `import type` cycle vanishes from the bundle but still ties two modules
// together, so that neither can be read, moved or tested without the other. This test reads every import the
// TypeScript pre-processor finds (static, `import type`, `export … from`, dynamic `import()`) in src/, server/ and
// webview-ui/src/, and fails naming each cycle.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '../..');
const ROOMS = ['src', 'server', 'webview-ui/src'];
const EXTENSIONS = ['.ts', '.tsx', '/index.ts', '/index.tsx'];

/** Every .ts/.tsx file under `dir`, relative to the root. */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...sources(rel));
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** The project files a module imports (relative specifiers only; packages are not the project's). */
function importsOf(file: string, text: string, exists: (f: string) => boolean): string[] {
  const out: string[] = [];
  for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
    if (!ref.fileName.startsWith('.')) continue;
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), ref.fileName)).replace(/\.js$/, '');
    const target = [base, ...EXTENSIONS.map((e) => base + e)].find(exists);
    if (target) out.push(target);
  }
  return out;
}

/** The cycles of a module graph: each strongly connected component of more than one module (or a self-import). */
export function cyclesIn(modules: ReadonlyMap<string, string>): string[][] {
  const graph = new Map<string, string[]>();
  for (const [file, text] of modules) graph.set(file, importsOf(file, text, (f) => modules.has(f)));
  // Tarjan's algorithm, iterative so that a deep chain of imports cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node)!;
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || edges.includes(frame.node)) cycles.push(component.sort());
      }
    }
  }
  return cycles;
}

describe('import cycles, type-only imports included', () => {
  it('finds a cycle made only of `import type`, and one through `export … from` and import()', () => {
    const typeOnly = new Map([
      ['src/a/x.ts', "import type { Y } from './y';\nexport interface X { y: Y }\n"],
      ['src/a/y.ts', "import type { X } from './x';\nexport interface Y { x?: X }\n"],
      ['src/a/z.ts', "import type { X } from './x';\nexport type Z = X;\n"],
    ]);
    assert.deepEqual(cyclesIn(typeOnly), [['src/a/x.ts', 'src/a/y.ts']]);
    const longer = new Map([
      ['src/p/index.ts', "export * from './q';\n"],
      ['src/p/q.ts', "export const q = () => import('../r');\n"],
      ['src/r.ts', "import { q } from './p';\nexport const r = q;\n"],
    ]);
    assert.deepEqual(cyclesIn(longer), [['src/p/index.ts', 'src/p/q.ts', 'src/r.ts']]);
    assert.deepEqual(cyclesIn(new Map([['src/s.ts', "import type { S } from './s';\nexport type S = string;\n"]])), [['src/s.ts']]);
    assert.deepEqual(cyclesIn(new Map([['src/t.ts', "import { z } from 'zod';\nexport const t = z;\n"]])), []);
  });

  it('finds none in src/, server/ or webview-ui/src/', () => {
    const modules = new Map<string, string>();
    for (const room of ROOMS) for (const f of sources(room)) modules.set(f, fs.readFileSync(path.join(root, f), 'utf8'));
    assert.ok(modules.size > 300, `only ${modules.size} modules read: is the scan looking in the right place?`);
    const cycles = cyclesIn(modules);
    assert.deepEqual(cycles, [], `import cycles:\n  ${cycles.map((c) => c.join(' ↔ ')).join('\n  ')}`);
  });
});
