// The README's Layout is the map a newcomer reads first. These tests hold it to the tree: every room under src/,
// server/ and webview-ui/src/apps/ (and every module at the top of src/) is named there, nothing named there is
// gone, and the rooms it puts on the plain-Node floor are the ones ESLint's doors treat so (eslint.config.mjs).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/** The Layout section's code block: one line a room, its path indented under its parent's. */
export function layoutBlock(readme: string): string {
  const section = /^## Layout\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1];
  assert.ok(section, 'README.md has no "## Layout" section');
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'the Layout section has no code block');
  return block;
}

/** The rooms (folders, and src/'s top-level modules) the block names, as paths from the root: `src/client`, … */
export function namedRooms(block: string): Set<string> {
  const named = new Set<string>();
  let parent = '';
  let room = '';
  for (const line of block.split('\n')) {
    const m = /^( *)(\S+)/.exec(line);
    if (!m || m[2]!.startsWith('{')) continue;
    const [, indent, name] = m as unknown as [string, string, string];
    if (indent.length === 0) {
      parent = name.replace(/\/$/, '');
      room = parent;
      named.add(parent);
    } else if (indent.length === 2 && /^[\w.-]+\/?$/.test(name)) {
      room = `${parent}/${name.replace(/\/$/, '')}`;
      named.add(room);
    }
    // Each app has a line of its own under its room: `apps/<name>/`.
    const app = /^ {4}apps\/(\w+)\/?(\s|$)/.exec(line);
    if (room === 'webview-ui/src/apps' && app) named.add(`webview-ui/src/apps/${app[1]}`);
  }
  return named;
}

/** What the tree holds: the folders under src/, server/ and webview-ui/src/apps/, and the modules at src/'s top. */
function rooms(): string[] {
  const out: string[] = [];
  for (const dir of ['src', 'server', 'webview-ui/src/apps']) {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (e.isDirectory()) out.push(`${dir}/${e.name}`);
      else if (dir === 'src' && e.name.endsWith('.ts')) out.push(`${dir}/${e.name}`);
    }
  }
  return out.sort();
}

describe('the README’s Layout names every room', () => {
  const block = layoutBlock(fs.readFileSync(path.join(root, 'README.md'), 'utf8'));
  const named = namedRooms(block);

  it('names every folder under src/, server/ and webview-ui/src/apps/, and every module at the top of src/', () => {
    const missing = rooms().filter((r) => !named.has(r));
    assert.deepEqual(missing, [], `rooms the README's Layout does not name: ${missing.join(', ')}`);
  });

  it('names nothing that is not there', () => {
    const gone = [...named].filter((r) => /^(src|server|webview-ui\/src\/apps)\//.test(r) && !fs.existsSync(path.join(root, r)));
    assert.deepEqual(gone, [], `the Layout names what the tree does not hold: ${gone.join(', ')}`);
  });

  it('puts on the plain-Node floor exactly the rooms ESLint holds to it', () => {
    const floorOne = block.split('\n').filter((l) => /^ {2}\S+\/\s+floor 1:/.test(l)).map((l) => l.trim().split('/')[0]).sort();
    const config = fs.readFileSync(path.join(root, 'eslint.config.mjs'), 'utf8');
    const plain = /const PLAIN_FLOOR = \{([\s\S]*?)\n\};/.exec(config)?.[1];
    assert.ok(plain, 'eslint.config.mjs has no PLAIN_FLOOR');
    const doors = [...plain.matchAll(/^\s+(\w+):/gm)].map((m) => m[1]).sort();
    assert.deepEqual(floorOne, doors);
  });

  it('fails on a room it does not name (the check is not empty)', () => {
    const trimmed = block.split('\n').filter((l) => !/^ {2}text\//.test(l)).join('\n');
    assert.ok(!namedRooms(trimmed).has('src/text'));
    assert.ok(named.has('src/text') && named.has('webview-ui/src/apps/trace') && named.has('server/store') && named.has('src/workbench.ts'));
    assert.ok(!namedRooms(block.replace(/^ {4}apps\/trace\/.*\n/m, '')).has('webview-ui/src/apps/trace'));
  });
});
