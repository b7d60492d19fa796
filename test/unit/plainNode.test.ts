// The prompt-file engine, the API client and the agent tools run in plain Node, without VS Code: a command-line tool or a server
// uses them as they are. Both are bundled here with nothing marked external, so a `vscode` import anywhere in
// their graph fails the build (no package of that name exists outside the editor), and the bundle then does a
// prompt file's round trip in a `node` process of its own.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(__dirname, '../..');

/** What the child process does with the bundle; it prints one line of JSON. */
const CHILD = `
const { engine, client, experiments, agent } = require(process.argv[1]);
const evaluators = experiments.parseEvaluators('dataset: d\\nevaluators:\\n  - type: json_schema\\n    schema: { type: object }\\n  - type: similarity\\n');
const text = [
  'prompt: plain-node',
  'template_format: f-string',
  'messages:',
  '  - role: system',
  '    template: You answer in {style}.',
  '  - role: human',
  '    template: "{question}"',
  '',
].join('\\n');
const parsed = engine.parsePromptFile(text);
const manifest = engine.toManifest(parsed.file);
const back = engine.fromManifest(manifest, { identifier: parsed.file.identifier });
const written = engine.writePromptFile(back, { header: true });
const again = engine.parsePromptFile(written);
const api = new client.LangSmithClient({ apiUrl: 'http://127.0.0.1:9/', apiKey: 'plain-node' });
console.log(JSON.stringify({
  errors: parsed.problems.filter((p) => p.severity === 'error').length,
  inputVariables: manifest.kwargs.input_variables,
  identifier: again.file && again.file.identifier,
  sameManifest: JSON.stringify(engine.toManifest(again.file)) === JSON.stringify(manifest),
  isPromptFile: engine.isPromptFile('a/b.prompt.yml'),
  apiUrl: api.apiUrl,
  evaluators: evaluators.file && evaluators.file.evaluators.map((e) => e.type),
  similarity: experiments.similarity('a b c d', 'a b x d'),
  agentTools: agent.TOOLS.length,
  agentReads: agent.toolsFor({ readOnly: true }).length,
  agentBadInput: agent.checkInput(agent.findTool('get_trace'), { traceId: 'nope' }).ok,
  vscodeLoaded: Object.keys(require.cache).some((k) => /[\\\\/]vscode[\\\\/]/.test(k)),
}));
`;

describe('plain Node: the prompt-file engine, the client, the experiment engine, the agent tools and the command line', function () {
  this.timeout(60_000);
  let dir: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-plain-node-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('bundles without vscode, then parses, converts, writes a prompt file, reads evaluators and constructs a client', async () => {
    const bundle = path.join(dir, 'plain.js');
    // No `external`: every import must resolve to a file or a package, and `vscode` resolves to neither.
    await esbuild.build({
      stdin: { contents: "export * as engine from './src/promptFile';\nexport * as client from './src/client';\nexport * as experiments from './src/experiments';\nexport * as agent from './src/agent';\n", resolveDir: root, loader: 'ts', sourcefile: 'plain.ts' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile: bundle,
      logLevel: 'silent',
    });
    const out = execFileSync(process.execPath, ['-e', CHILD, bundle], { cwd: dir, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } });
    assert.deepEqual(JSON.parse(out.trim()), {
      errors: 0,
      inputVariables: ['style', 'question'],
      identifier: 'plain-node',
      sameManifest: true,
      isPromptFile: true,
      apiUrl: 'http://127.0.0.1:9',
      evaluators: ['json_schema', 'similarity'],
      similarity: 0.75,
      agentTools: 16,
      agentReads: 10,
      agentBadInput: false,
      vscodeLoaded: false,
    });
  });

  it('bundles the command line without vscode; it validates a prompt file in a node process of its own', async () => {
    const bundle = path.join(dir, 'cli.js');
    // The same entry as dist/cli.js, again with nothing external.
    await esbuild.build({ entryPoints: [path.join(root, 'src/cli/bin.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: bundle, logLevel: 'silent' });
    fs.writeFileSync(path.join(dir, 'plain.prompt.yaml'), 'prompt: plain-node\ntemplate_format: f-string\ntemplate: "Hi {name"\n');
    let failed: { status?: number; stdout?: string } = {};
    try {
      execFileSync(process.execPath, [bundle, 'prompts', 'validate', 'plain.prompt.yaml'], { cwd: dir, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } });
    } catch (e) {
      failed = e as { status?: number; stdout?: string };
    }
    assert.equal(failed.status, 1);
    assert.match(failed.stdout ?? '', /^plain\.prompt\.yaml:3:15: error: Unclosed '\{' in template\.$/m);
    const help = execFileSync(process.execPath, [bundle, 'prompts', 'plan', '--help'], { cwd: dir, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } });
    assert.match(help, /^Usage: langsmith-workbench prompts plan/);
  });
});
