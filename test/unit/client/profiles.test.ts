// The LangSmith CLI's profiles file (`~/.langsmith/config.json`), read as the official SDKs read it: real files in
// a temporary home folder, every shape the SDKs accept, malformed files, and the environment's overrides.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { displayProfilesPath, profileApiKey, profilesFilePath, ProfilesFileError, readProfileLogin, readProfiles } from '../../../src/client/profiles';

const SECRET = 'lsv2_pt_0123456789abcdef_secret';

describe('LangSmith CLI profiles (~/.langsmith/config.json)', () => {
  let home: string;
  let env: Record<string, string | undefined>;
  const configFile = () => path.join(home, '.langsmith', 'config.json');
  const write = (content: unknown, file = configFile()) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    return file;
  };
  /** The error readProfiles throws; fails when it does not. */
  const failure = (): ProfilesFileError => {
    try {
      readProfiles({ env });
    } catch (e) {
      assert.ok(e instanceof ProfilesFileError, String(e));
      assert.ok(!e.message.includes(SECRET), 'the message never carries the key');
      return e;
    }
    assert.fail('expected a ProfilesFileError');
  };

  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-profiles-'));
    env = { HOME: home };
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it('finds the file in the home folder, or where LANGSMITH_CONFIG_FILE says', () => {
    assert.equal(profilesFilePath(env), path.join(home, '.langsmith', 'config.json'));
    assert.equal(profilesFilePath({ USERPROFILE: home }), path.join(home, '.langsmith', 'config.json'));
    assert.equal(profilesFilePath({ ...env, LANGSMITH_CONFIG_FILE: '/etc/ls/other.json' }), path.resolve('/etc/ls/other.json'));
    assert.equal(displayProfilesPath(configFile(), env), '~/.langsmith/config.json');
    assert.equal(displayProfilesPath('/elsewhere/config.json', env), '/elsewhere/config.json');
  });

  it('answers nothing when there is no file', () => {
    assert.equal(readProfiles({ env }), undefined);
    assert.equal(readProfiles({ env: { ...env, LANGSMITH_CONFIG_FILE: path.join(home, 'missing.json') } }), undefined);
  });

  it('lists each profile: endpoint, key or token, workspace; the one in use first; never a secret', () => {
    write({
      current_profile: 'work',
      profiles: {
        default: { api_url: 'https://api.smith.langchain.com/', api_key: SECRET },
        work: { api_url: ' "https://langsmith.example.com/api/v1" ', api_key: SECRET, workspace_id: 'a1b2c3d4-0000-4000-8000-000000000001' },
        eu: { api_url: 'https://eu.api.smith.langchain.com', oauth: { access_token: 'tok-access', refresh_token: 'tok-refresh', expires_at: '2026-01-01T00:00:00Z' } },
        bare: {},
        blank: { api_key: '   ', oauth: { access_token: '' } },
      },
    });
    const found = readProfiles({ env })!;
    assert.equal(found.path, configFile());
    assert.deepEqual(found.profiles, [
      { name: 'work', apiUrl: 'https://langsmith.example.com/api/v1', hasApiKey: true, hasOAuthToken: false, workspaceId: 'a1b2c3d4-0000-4000-8000-000000000001', current: true },
      { name: 'bare', apiUrl: 'https://api.smith.langchain.com', hasApiKey: false, hasOAuthToken: false, current: false },
      { name: 'blank', apiUrl: 'https://api.smith.langchain.com', hasApiKey: false, hasOAuthToken: false, current: false },
      { name: 'default', apiUrl: 'https://api.smith.langchain.com', hasApiKey: true, hasOAuthToken: false, current: false },
      { name: 'eu', apiUrl: 'https://eu.api.smith.langchain.com', hasApiKey: false, hasOAuthToken: true, current: false },
    ]);
    assert.ok(!JSON.stringify(found).includes(SECRET) && !JSON.stringify(found).includes('tok-'), 'the listing holds no secret');
    // The key is read on its own, trimmed and unquoted as the SDKs read it.
    assert.equal(profileApiKey(configFile(), 'work', env), SECRET);
    assert.equal(profileApiKey(configFile(), 'eu', env), undefined);
    assert.equal(profileApiKey(configFile(), 'blank', env), undefined);
  });

  it('the profile in use: LANGSMITH_PROFILE, else current_profile, else "default"', () => {
    write({ profiles: { default: { api_key: SECRET }, other: { api_key: SECRET } } });
    assert.deepEqual(readProfiles({ env })!.profiles.map((p) => [p.name, p.current]), [['default', true], ['other', false]]);
    assert.deepEqual(readProfiles({ env: { ...env, LANGSMITH_PROFILE: 'other' } })!.profiles.map((p) => [p.name, p.current]), [['other', true], ['default', false]]);
    write({ current_profile: 'other', profiles: { default: {}, other: {} } });
    assert.deepEqual(readProfiles({ env })!.profiles.map((p) => p.name), ['other', 'default']);
    // No "default" and no current_profile: none is in use; listed by name.
    write({ profiles: { b: {}, a: {} } });
    assert.deepEqual(readProfiles({ env })!.profiles.map((p) => [p.name, p.current]), [['a', false], ['b', false]]);
    // An empty file object, or profiles without entries: nothing to offer.
    write({});
    assert.deepEqual(readProfiles({ env })!.profiles, []);
  });

  it('LANGSMITH_CONFIG_FILE names another file, which is read instead', () => {
    write({ profiles: { home: { api_key: SECRET } } });
    const other = write({ profiles: { ci: { api_url: 'http://127.0.0.1:1984', api_key: SECRET } } }, path.join(home, 'ci', 'langsmith.json'));
    const found = readProfiles({ env: { ...env, LANGSMITH_CONFIG_FILE: other } })!;
    assert.equal(found.path, other);
    assert.deepEqual(found.profiles.map((p) => [p.name, p.apiUrl]), [['ci', 'http://127.0.0.1:1984']]);
  });

  it('a malformed file: an error naming the file and each problem, without a value from it', () => {
    write(`{ "profiles": { "default": { "api_key": "${SECRET}" } `);
    let e = failure();
    assert.equal(e.path, configFile());
    assert.match(e.message, /config\.json: is not valid JSON/);

    write(`{\n  "profiles": {\n    "default": { "api_key": "${SECRET}", }\n  }\n}`);
    e = failure();
    assert.match(e.message, /is not valid JSON \(line 3, column \d+\)$/);

    write('[1, 2]');
    assert.deepEqual(failure().problems, ['is not a JSON object']);

    write({ profiles: [SECRET], current_profile: 7 });
    assert.deepEqual(failure().problems, ['"profiles" is not an object', '"current_profile" is not text']);

    write({
      profiles: {
        one: SECRET,
        two: { api_url: 'ftp://example.com', api_key: 12345, workspace_id: ['x'] },
        three: { api_url: 'not a url', oauth: SECRET },
        four: { oauth: { access_token: 5 } },
      },
    });
    assert.deepEqual(failure().problems, [
      'profile "one" is not an object',
      'profile "two": "api_key" is not text',
      'profile "two": "workspace_id" is not text',
      'profile "two": "api_url" is not an http(s) address',
      'profile "three": "api_url" is not an http(s) address',
      'profile "three": "oauth" is not an object',
      'profile "four": "oauth.access_token" is not text',
    ]);
  });

  it('LANGSMITH_PROFILE naming a profile the file does not have is an error that lists the ones it has', () => {
    write({ profiles: { default: { api_key: SECRET }, work: {} } });
    env['LANGSMITH_PROFILE'] = 'staging';
    assert.deepEqual(failure().problems, ['LANGSMITH_PROFILE names profile "staging", which is not in the file (it has "default", "work")']);
  });

  it('a file that cannot be read says why', function () {
    fs.mkdirSync(configFile(), { recursive: true }); // a folder where the file should be
    assert.deepEqual(failure().problems, ['cannot be read (EISDIR)']);
  });

  it('reading a key: the profile must still be there', () => {
    write({ profiles: { default: { api_key: SECRET } } });
    assert.throws(() => profileApiKey(configFile(), 'gone', env), (e: unknown) => e instanceof ProfilesFileError && e.message.endsWith('has no profile "gone"'));
    fs.rmSync(configFile());
    assert.throws(() => profileApiKey(configFile(), 'default', env), (e: unknown) => e instanceof ProfilesFileError && e.message.endsWith('no longer exists'));
  });
  it("reads one profile's OAuth login as the SDKs do: values trimmed and unquoted, the expiry as a time, the default endpoint", () => {
    const file = write({
      profiles: {
        cli: { oauth: { access_token: ' "at-1" ', refresh_token: 'rt-1', expires_at: '2026-11-27T12:00:00Z' } },
        bare: { api_url: 'http://127.0.0.1:1984/', oauth: { refresh_token: 'rt-2', expires_at: 'soon' } },
        none: { api_key: SECRET },
      },
    });
    assert.deepEqual(readProfileLogin(file, 'cli'), { apiUrl: 'https://api.smith.langchain.com', accessToken: 'at-1', refreshToken: 'rt-1', expiresAt: Date.parse('2026-11-27T12:00:00Z') });
    assert.deepEqual(readProfileLogin(file, 'bare'), { apiUrl: 'http://127.0.0.1:1984', accessToken: undefined, refreshToken: 'rt-2', expiresAt: undefined });
    assert.deepEqual(readProfileLogin(file, 'none'), { apiUrl: 'https://api.smith.langchain.com', accessToken: undefined, refreshToken: undefined, expiresAt: undefined });
    assert.throws(() => readProfileLogin(file, 'gone'), (e: unknown) => e instanceof ProfilesFileError && e.problems[0] === 'has no profile "gone"');
  });
});
