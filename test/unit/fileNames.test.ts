// Names from the server never become paths outside the folder a file is written to: the dataset export's file
// name (src/common/fileNames.ts) and a pulled prompt's (promptFileName), for the hostile names of the corpus and for
// any string at all (fast-check): no separators, no `.`/`..`/leading dot, no device name Windows reserves, no
// control or direction characters, at most 255 bytes, and inside the folder on POSIX and on Windows.
import assert from 'node:assert/strict';
import path from 'node:path';
import fc from 'fast-check';
import { MAX_FILE_NAME_BYTES, safeFileName } from '../../src/common/fileNames';
import { promptFileName } from '../../src/promptFile';
import { HOSTILE, HOSTILE_FILE_NAMES } from '../harness/hostile';

const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;

/** Every way a file name can escape its folder or pose as something else; the first problem, or null. */
function problem(name: string, extension: string): string | null {
  if (!name.endsWith(extension)) return `does not end with ${extension}`;
  if (/[\\/]/.test(name)) return 'has a path separator';
  if (/[:*?"<>|]/.test(name)) return 'has a character Windows refuses';
  if (name.startsWith('.')) return 'starts with a dot';
  if (/[.\s]$/.test(name.slice(0, -extension.length))) return 'the name before the extension ends in a dot or space';
  for (const ch of name) {
    const c = ch.codePointAt(0)!;
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return 'has a control character';
    if (c === 0x061c || (c >= 0x200b && c <= 0x200f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2060 && c <= 0x2069) || c === 0xfeff) return 'has a direction or zero-width character';
    if (c >= 0xd800 && c <= 0xdfff) return 'has a lone surrogate';
  }
  if (RESERVED.test(name.split('.')[0]!.trim())) return 'is a reserved device name';
  if (Buffer.byteLength(name) > MAX_FILE_NAME_BYTES) return `is ${Buffer.byteLength(name)} bytes long`;
  if (name.length === extension.length) return 'is only the extension';
  const posix = path.posix.resolve('/work/folder', name);
  if (path.posix.dirname(posix) !== '/work/folder') return `resolves to ${posix} on POSIX`;
  const win = path.win32.resolve('C:\\work\\folder', name);
  if (path.win32.dirname(win) !== 'C:\\work\\folder') return `resolves to ${win} on Windows`;
  return null;
}

const names = [...HOSTILE_FILE_NAMES, ...HOSTILE.map((h) => h.value)];

describe('file names from server names', () => {
  it('export: every hostile name becomes a safe name in the folder', () => {
    for (const name of names) {
      const file = safeFileName(name, '.jsonl', 'dataset');
      assert.equal(problem(file, '.jsonl'), null, `${JSON.stringify(name.slice(0, 80))} → ${JSON.stringify(file.slice(0, 120))}`);
    }
    // What a person reads stays: an ordinary name keeps its words, a reserved one is prefixed, an empty one named.
    assert.equal(safeFileName('support QA (v2)', '.jsonl', 'dataset'), 'support QA (v2).jsonl');
    assert.equal(safeFileName('CON', '.jsonl', 'dataset'), 'dataset-CON.jsonl');
    assert.equal(safeFileName('nul.txt', '.jsonl', 'dataset'), 'dataset-nul.txt.jsonl');
    assert.equal(safeFileName('..', '.jsonl', 'dataset'), 'dataset.jsonl');
    assert.equal(safeFileName('../../etc/passwd', '.jsonl', 'dataset'), '-..-etc-passwd.jsonl');
    assert.equal(safeFileName('invoice\u202Efdp.exe', '.jsonl', 'dataset'), 'invoicefdp.exe.jsonl');
    assert.equal(Buffer.byteLength(safeFileName('ü'.repeat(300), '.jsonl')), 254, 'cut at a whole character, within 255 bytes');
  });

  it('pull: every hostile prompt name becomes a safe prompt file name in the folder', () => {
    for (const name of names) {
      const file = promptFileName(name);
      assert.equal(problem(file, '.prompt.yaml'), null, `${JSON.stringify(name.slice(0, 80))} → ${JSON.stringify(file.slice(0, 120))}`);
    }
  });

  it('any string at all becomes a safe name (export and pull)', () => {
    const anyName = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 400 }),
      fc.string({ unit: 'grapheme', maxLength: 80 }),
      fc.array(fc.constantFrom('.', '..', '/', '\\', 'CON', 'nul', 'com1', ' ', '\u202E', '\u0000', 'a', 'ü', '\uD800', ':', '~'), { maxLength: 30 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(anyName, (name) => {
        assert.equal(problem(safeFileName(name, '.jsonl', 'dataset'), '.jsonl'), null, JSON.stringify(name));
        assert.equal(problem(promptFileName(name), '.prompt.yaml'), null, JSON.stringify(name));
      }),
      { numRuns: 3000 },
    );
  });
});
