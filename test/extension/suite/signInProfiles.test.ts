// Sign In from the LangSmith CLI's profiles (`~/.langsmith/config.json`; here a temporary file that
// LANGSMITH_CONFIG_FILE names), in the real extension host against the local server: each profile is offered,
// choosing one signs in with its endpoint and key, checked with a real call and kept in SecretStorage only; a
// profile with only an OAuth login (`langsmith login`) signs in with that login, its token left in the file.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkbenchApi } from '../../../src/extension';
import { activateWorkbench, endpoint, get, http, runScripted, shownMessages } from './support';
import { ScriptedPrompter } from './scriptedPrompter';

/** The local server's second key (user "reviewer"): a key the profile brings, unlike the run's own. */
const PROFILE_KEY = 'local-reviewer-key';
const WRONG_KEY = 'lsv2_pt_not_a_key_of_this_server';

describe('sign in from LangSmith CLI profiles', function () {
  this.timeout(60_000);
  let workbench: WorkbenchApi;
  let dir: string;
  let file: string;
  let tenantId: string;
  /** The profile's endpoint: the local server under its /api/v1 form, so it is not the run's own endpoint. */
  const profileEndpoint = `${endpoint}/api/v1`;
  const langsmith = () => vscode.workspace.getConfiguration('langsmith');
  const secretOf = (url: string) => workbench.secrets.get(`langsmith.apiKey:${url}`);
  const writeConfig = (config: unknown) => fs.writeFileSync(file, JSON.stringify(config, null, 2));

  before(async () => {
    workbench = await activateWorkbench();
    tenantId = (await get<{ id: string }>('/settings')).id;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-cli-profiles-'));
    file = path.join(dir, 'config.json');
    process.env.LANGSMITH_CONFIG_FILE = file;
    delete process.env.LANGSMITH_PROFILE;
  });
  afterEach(async () => {
    await workbench.secrets.delete(`langsmith.apiKey:${profileEndpoint}`);
    await workbench.secrets.delete(`langsmith.profileLogin:${profileEndpoint}`);
    await langsmith().update('endpoint', undefined, vscode.ConfigurationTarget.Global);
    await langsmith().update('workspaceId', undefined, vscode.ConfigurationTarget.Global);
  });
  after(() => {
    delete process.env.LANGSMITH_CONFIG_FILE;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('offers each profile; choosing one signs in with its endpoint, key and workspace, the key in SecretStorage only', async () => {
    writeConfig({
      current_profile: 'local',
      profiles: {
        cloud: { api_url: 'https://eu.api.smith.langchain.com', oauth: { access_token: 'oauth-access', refresh_token: 'oauth-refresh' } },
        local: { api_url: `${profileEndpoint}/`, api_key: PROFILE_KEY, workspace_id: tenantId },
      },
    });
    const { script, errors, infos } = await runScripted(workbench, 'langsmith.signIn', new ScriptedPrompter([{ pick: "Use profile 'local'" }]));
    assert.deepEqual(errors, []);
    assert.deepEqual(script.offered, [[`Use profile 'local' from ${file}`, `Use profile 'cloud' from ${file}`, 'Choose an endpoint and enter an API key…']]);
    assert.deepEqual(infos, [`Signed in to LangSmith at ${profileEndpoint}.`]);
    // The key is stored as a typed key is (SecretStorage, under its endpoint); the settings name the endpoint
    // and the profile's workspace, and nothing in them is the key.
    assert.equal(await secretOf(profileEndpoint), PROFILE_KEY);
    assert.equal(langsmith().get('endpoint'), profileEndpoint);
    assert.equal(langsmith().get('workspaceId'), tenantId);
    assert.ok(!JSON.stringify(langsmith()).includes(PROFILE_KEY), 'no setting holds the key');
    // The extension now works through the profile's connection.
    const connection = await workbench.clients.connection.current();
    assert.equal(connection.endpoint, profileEndpoint);
    assert.equal(connection.apiKey, PROFILE_KEY);
    assert.equal((await (await workbench.clients.client()).settings()).id, tenantId);
  });

  it('a profile whose key LangSmith rejects: says so, naming the profile and not the key; stores nothing', async () => {
    writeConfig({ profiles: { default: { api_url: profileEndpoint, api_key: ` "${WRONG_KEY}" ` } } });
    const { script, errors, infos } = await runScripted(workbench, 'langsmith.signIn', new ScriptedPrompter([{ pick: "Use profile 'default'" }]));
    assert.deepEqual(script.offered, [[`Use profile 'default' from ${file}`, 'Choose an endpoint and enter an API key…']]);
    assert.deepEqual(infos, []);
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, /^Could not sign in with profile 'default' from .*config\.json: LangSmith rejected this API key \(401\)/);
    assert.ok(!errors[0]!.includes(WRONG_KEY));
    assert.equal(await secretOf(profileEndpoint), undefined);
    assert.equal(langsmith().get('endpoint'), '');
  });

  it('dismissing the profile question cancels the sign-in', async () => {
    writeConfig({ profiles: { default: { api_url: profileEndpoint, api_key: PROFILE_KEY } } });
    const { errors, infos } = await runScripted(workbench, 'langsmith.signIn', new ScriptedPrompter([{ dismiss: true }]));
    assert.deepEqual([errors, infos], [[], []]);
    assert.equal(await secretOf(profileEndpoint), undefined);
    assert.equal(langsmith().get('endpoint'), '');
  });

  it('a profile with only an OAuth login signs in with it, no key typed: the token stays in the file, renewed there', async () => {
    // The server's tokens for the run's user; the access token has already expired, so signing in renews it.
    const issued = await http<{ access_token: string; refresh_token: string }>('POST', '/__local/oauth/tokens', { expires_in: 0 });
    writeConfig({ profiles: { cli: { api_url: profileEndpoint, oauth: { ...issued, expires_at: new Date(Date.now() - 60_000).toISOString() } } } });
    const { script, errors, infos } = await runScripted(workbench, 'langsmith.signIn', new ScriptedPrompter([{ pick: "Use profile 'cli'" }]));
    assert.deepEqual(errors, []);
    assert.deepEqual(script.offered, [[`Use profile 'cli' from ${file}`, 'Choose an endpoint and enter an API key…']]);
    assert.deepEqual(infos, [`Signed in with profile 'cli' at ${profileEndpoint}.`]);
    const renewed = (JSON.parse(fs.readFileSync(file, 'utf8')) as { profiles: { cli: { oauth: { access_token: string; refresh_token: string } } } }).profiles.cli.oauth;
    assert.notEqual(renewed.access_token, issued.access_token, 'the sign-in renewed the expired token in the file');

    // Signed in through the profile: the connection names it, the palette's keys and the status bar follow.
    const connection = await workbench.clients.connection.current();
    assert.equal(connection.endpoint, profileEndpoint);
    assert.equal(connection.apiKey, undefined);
    assert.deepEqual(connection.profile, { file, name: 'cli' });
    assert.equal((await (await workbench.clients.client()).settings()).id, tenantId);
    assert.equal(await workbench.clients.checkHealth(), 'connected');

    // Kept: which profile, under the endpoint — no token anywhere the extension writes.
    assert.equal(await secretOf(profileEndpoint), undefined, 'no key is stored');
    assert.deepEqual(JSON.parse((await workbench.secrets.get(`langsmith.profileLogin:${profileEndpoint}`)) ?? 'null'), { file, name: 'cli' });
    const tokens = [issued.access_token, issued.refresh_token, renewed.access_token, renewed.refresh_token];
    const state = [workbench.storage.globalState, workbench.storage.workspaceState].map((m) => JSON.stringify(m.keys().map((k) => [k, m.get(k)])));
    // The output channel's file (under the log folder); searched once it holds the sign-in's own line.
    const logDir = workbench.storage.logUri.fsPath;
    const readLog = () => {
      const f = (fs.readdirSync(logDir, { recursive: true }) as string[]).find((n) => /LangSmith\.log$/.test(n));
      return f ? fs.readFileSync(path.join(logDir, f), 'utf8') : '';
    };
    const end = Date.now() + 10_000;
    while (!readLog().includes('with the login of profile "cli"') && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    const log = readLog();
    assert.match(log, /Signed in to .* with the login of profile "cli" from .*; its token stays in that file\./);
    for (const [where, text] of [['settings', JSON.stringify(langsmith())], ['global state', state[0]!], ['workspace state', state[1]!], ['log', log], ['notifications', JSON.stringify(shownMessages())]] as const) {
      for (const t of tokens) assert.ok(!text.includes(t), `no token in the ${where}`);
    }

    // Sign Out stops using the profile and leaves the file as it is.
    const before = fs.readFileSync(file, 'utf8');
    await vscode.commands.executeCommand('langsmith.signOut');
    const after = await workbench.clients.connection.current();
    assert.deepEqual([after.apiKey, after.profile], [undefined, undefined]);
    assert.equal(await workbench.secrets.get(`langsmith.profileLogin:${profileEndpoint}`), undefined);
    assert.equal(fs.readFileSync(file, 'utf8'), before);
  });

  it('a profile whose login LangSmith refuses: says so, naming the profile, no token; stores nothing', async () => {
    writeConfig({ profiles: { cli: { api_url: profileEndpoint, oauth: { access_token: 'lsw_at_old', refresh_token: 'lsw_rt_revoked', expires_at: '2020-01-01T00:00:00Z' } } } });
    const { errors, infos } = await runScripted(workbench, 'langsmith.signIn', new ScriptedPrompter([{ pick: "Use profile 'cli'" }]));
    assert.deepEqual(infos, []);
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, /^Could not sign in with profile 'cli' from .*config\.json: LangSmith refused this login: LangSmith refused to renew the login of profile "cli" .*\(400 invalid_grant\)\. Run `langsmith login` again/);
    assert.ok(!/lsw_(at|rt)_/.test(errors[0]!));
    assert.equal(await workbench.secrets.get(`langsmith.profileLogin:${profileEndpoint}`), undefined);
    assert.equal(langsmith().get('endpoint'), '');
  });

  it('a malformed profiles file: a warning naming the file and the problem, then the usual endpoint question', async () => {
    fs.writeFileSync(file, `{ "profiles": { "default": { "api_key": "${WRONG_KEY}" }, } }`);
    const seen = shownMessages().length;
    const run = vscode.commands.executeCommand('langsmith.signIn');
    // The endpoint question is VS Code's own quick pick here; close it once the warning is out.
    const end = Date.now() + 10_000;
    while (shownMessages().length === seen && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await run;
    const warnings = shownMessages().slice(seen).filter((m) => m.kind === 'warning');
    assert.equal(warnings.length, 1, JSON.stringify(shownMessages().slice(seen)));
    assert.match(warnings[0]!.message, /^The LangSmith profiles in .*config\.json cannot be used: is not valid JSON \(line 1, column \d+\)$/);
    assert.ok(!warnings[0]!.message.includes(WRONG_KEY));
    assert.equal(await secretOf(profileEndpoint), undefined);
  });
});
