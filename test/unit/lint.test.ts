// The one-way doors of ARCHITECTURE.md are ESLint rules (eslint.config.mjs): these tests put a forbidden import
// in each room, through ESLint's own API with the project's config, and see it refused — and the allowed
// imports pass. (`npm test`'s lint layer runs the same config over the whole tree.)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';

const root = path.resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: root });

/**
 * The errors ESLint reports for `code` as if it were the file at `file`. Files under src/ are linted with type
 * information, so the tests there stand in for files that exist (their text replaced, not their place).
 */
async function errors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

const refused = async (file: string, code: string, why: RegExp) => {
  const found = await errors(file, code);
  assert.ok(found.some((e) => why.test(e)), `${file} should refuse:\n${code}\nbut ESLint said: ${found.join(' | ') || 'nothing'}`);
};
const allowed = async (file: string, code: string) => assert.deepEqual(await errors(file, code), [], `${file} should allow:\n${code}`);

describe('lint: the doors of the architecture', function () {
  this.timeout(60_000);

  it('src/client and src/protocol never import vscode or the host’s rooms', async () => {
    await refused('src/client/resources/datasets.ts', "import * as vscode from 'vscode';\nexport const x = vscode;\n", /no-restricted-imports.*run without VS Code/);
    await refused('src/client/index.ts', "import { Commands } from '../constants';\nexport const x = Commands;\n", /never import the extension host/);
    await refused('src/client/resources/datasets.ts', "import { ClientService } from '../../auth/clientService';\nexport const x = ClientService;\n", /never import the extension host/);
    await refused('src/protocol/hello.ts', "import { Panels } from '../webviews/descriptors';\nexport const x = Panels;\n", /never import the extension host/);
    await allowed('src/client/resources/datasets.ts', "import { MSG } from '../messages';\nexport const x = MSG;\n");
  });

  it('src/promptFile never imports vscode, the host’s rooms or the editor features; src/client it may', async () => {
    await refused('src/promptFile/parse.ts', "import * as vscode from 'vscode';\nexport const x = vscode;\n", /no-restricted-imports.*promptFile runs without VS Code/);
    await refused('src/promptFile/sync.ts', "import { ClientService } from '../auth/clientService';\nexport const x = ClientService;\n", /promptFile never imports the extension host/);
    await refused('src/promptFile/write.ts', "import { Commands } from '../constants';\nexport const x = Commands;\n", /promptFile never imports the extension host/);
    await refused('src/promptFile/model.ts', "import { promptFormat } from '../prompts/promptFiles';\nexport const x = promptFormat;\n", /promptFile never imports the extension host/);
    await allowed('src/promptFile/sync.ts', "import { MSG } from '../client/messages';\nimport { toManifest } from './manifest';\nexport const x = [MSG, toManifest];\n");
  });

  it('auth/, views/ and common/ never reach up into commands/', async () => {
    await refused('src/views/treeNode.ts', "import { prompter } from '../commands/prompter';\nexport const x = prompter;\n", /sit below commands/);
    await allowed('src/views/treeNode.ts', "import { Commands } from '../constants';\nexport const x = Commands;\n");
  });

  it('the constants import nothing of the project', async () => {
    await refused('src/constants.ts', "import { SCHEME } from './views/documents';\nexport const x = SCHEME;\n", /ground floor/);
  });

  it('webview-ui imports only src/protocol, never vscode, and the toolkit only inside common/components', async () => {
    await refused('webview-ui/src/apps/door/App.tsx', "import { LangSmithClient } from '../../../../src/client';\nexport const x = LangSmithClient;\n", /only src\/protocol/);
    await refused('webview-ui/src/apps/door/App.tsx', "import * as vscode from 'vscode';\nexport const x = vscode;\n", /through src\/protocol messages/);
    await refused('webview-ui/src/apps/door/App.tsx', "import { vsCodeButton } from '@vscode/webview-ui-toolkit';\nexport const x = vsCodeButton;\n", /deprecated upstream/);
    await allowed('webview-ui/src/common/components/door.ts', "import { vsCodeButton } from '@vscode/webview-ui-toolkit';\nexport const x = vsCodeButton;\n");
    await allowed('webview-ui/src/apps/door/App.tsx', "import { PushPrompt } from '../../../../src/protocol/promptCommit';\nexport const x = PushPrompt;\n");
  });

  it('webviews never render strings as HTML and only common/vscode.ts acquires the VS Code API', async () => {
    await refused('webview-ui/src/apps/door/App.tsx', 'export const A = (p: { t: string }) => <div dangerouslySetInnerHTML={{ __html: p.t }} />;\n', /rendered as text/);
    await refused('webview-ui/src/apps/door/page.ts', 'export function put(el: { innerHTML: string }, t: string) {\n  el.innerHTML = t;\n}\n', /rendered as text/);
    await refused('webview-ui/src/apps/door/page.ts', 'declare function acquireVsCodeApi(): unknown;\nexport const api = acquireVsCodeApi();\n', /Only webview-ui\/src\/common\/vscode\.ts/);
  });

  it('server/ never imports src/', async () => {
    await refused('server/door.ts', "import { MSG } from '../src/client/messages';\nexport const x = MSG;\n", /never imports src/);
    await refused('server/routes/door.ts', "import { MSG } from '../../src/client/messages';\nexport const x = MSG;\n", /never imports src/);
  });

  it('server/store never imports server/routes', async () => {
    await refused('server/store/door.ts', "import { datasetOut } from '../routes/datasets';\nexport const x = datasetOut;\n", /store never imports server\/routes/);
    await refused('server/store/door.ts', "import { MSG } from '../../src/client/messages';\nexport const x = MSG;\n", /never imports src/);
    await allowed('server/store/door.ts', "import { getDataset } from './datasets';\nexport const x = getDataset;\n");
  });

  it('product code has no `any`', async () => {
    await refused('webview-ui/src/apps/door/page.ts', 'export const x: any = 1;\n', /no-explicit-any/);
  });

  it('webviews/ never reaches up into commands/', async () => {
    await refused('src/webviews/html.ts', "import { registerCommand } from '../commands/registerCommand';\nexport const x = registerCommand;\n", /webviews\/ sit below commands/);
    await allowed('src/webviews/html.ts', "import { Commands } from '../constants';\nexport const x = Commands;\n");
  });

  describe('import cycles', () => {
    /** Writes `files` into a scratch folder of `room` (a cycle needs real files on both ends), lints them, removes them. */
    async function cycleErrors(room: string, files: Record<string, string>): Promise<string[]> {
      const dir = fs.mkdtempSync(path.join(root, room, 'cycle-door-'));
      try {
        for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
        const results = await eslint.lintFiles([dir]);
        return results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'import-x/no-cycle').map((m) => `${path.basename(r.filePath)}: ${m.message}`));
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }

    it('refuses a cycle in the host, through a static or a lazy import', async () => {
      const found = await cycleErrors('src/common', {
        'a.ts': "import { b } from './b';\nexport const a = (): number => b() + 1;\n",
        'b.ts': "export const b = (): number => 1;\nexport const later = () => import('./c');\n",
        'c.ts': "import { a } from './a';\nexport const c = a;\n",
      });
      assert.ok(found.some((e) => /^a\.ts: Dependency cycle/.test(e)), `a → b → c → a should be refused; ESLint said: ${found.join(' | ') || 'nothing'}`);
      assert.ok(found.some((e) => /^c\.ts: Dependency cycle/.test(e)), `the lazy import closing the cycle should be refused too; ESLint said: ${found.join(' | ')}`);
    });

    it('refuses a cycle between two webview components and the server’s modules', async () => {
      const ui = await cycleErrors('webview-ui/src/common', {
        'List.tsx': "import { Row } from './Row';\nexport const List = () => <Row />;\nexport const gap = 2;\n",
        'Row.tsx': "import { gap } from './List';\nexport const Row = () => <div>{gap}</div>;\n",
      });
      assert.equal(ui.length, 2, `both ends of List ↔ Row should be refused; ESLint said: ${ui.join(' | ') || 'nothing'}`);
      const server = await cycleErrors('server', {
        'a.ts': "import { b } from './b';\nexport const a = 1 + b;\n",
        'b.ts': "import { a } from './a';\nexport const b = 1;\nexport const c = () => a;\n",
      });
      assert.equal(server.length, 2, `server a ↔ b should be refused; ESLint said: ${server.join(' | ') || 'nothing'}`);
    });

    it('allows the same modules once the shared piece has a home of its own', async () => {
      const found = await cycleErrors('webview-ui/src/common', {
        'gap.ts': 'export const gap = 2;\n',
        'List.tsx': "import { Row } from './Row';\nexport const List = () => <Row />;\n",
        'Row.tsx': "import { gap } from './gap';\nexport const Row = () => <div>{gap}</div>;\n",
      });
      assert.deepEqual(found, []);
    });
  });
});
