// Hostile strings for the UI's security tests, and a helper that puts them into a running local server through
// its API, in every field the extension shows: names and descriptions of projects, runs, datasets, examples,
// splits, prompts and queues, run inputs/outputs/errors, feedback comments, commit manifests.
//
//   import { HOSTILE, insertHostile, PWNED } from '../harness/hostile';
//   const objects = await insertHostile({ url, apiKey }, { tag: 'abc123' });
//   objects.items[i].entry.value        the hostile text in every field of the i-th set of objects
//
// Every script payload sets window.__pwned (PWNED): a page where it is defined ran server text as code. Every
// link payload aims at `command:langsmith.signOut` (COMMAND_TARGET), so a followed link is seen as a sign-out.
import { randomUUID } from 'node:crypto';
import { okJson, rawRequest, type ServerAddress } from './http';

/** The window property the script payloads set. */
export const PWNED = '__pwned';
/** The command the link payloads point at: harmless, but its effect (signed out) is visible. */
export const COMMAND_TARGET = 'langsmith.signOut';

export type HostileClass =
  | 'scriptTag'
  | 'eventHandler'
  | 'javascriptUrl'
  | 'commandUrl'
  | 'vscodeUrl'
  | 'markdownLink'
  | 'markdownHtml'
  | 'longString'
  | 'controlChars'
  | 'rtlOverride'
  | 'loneSurrogate'
  | 'templateSyntax'
  | 'prototypeKey'
  | 'pathLike';

export interface HostileEntry {
  /** A short unique name, for test titles and reports. */
  readonly name: string;
  readonly class: HostileClass;
  readonly value: string;
}

/** Characters the long entry repeats; long enough to exceed every limit the UI applies to a row or tooltip. */
export const LONG_LENGTH = 65_536;

export const HOSTILE: readonly HostileEntry[] = [
  { name: 'script-tag', class: 'scriptTag', value: `<script>window.${PWNED}=1</script>` },
  { name: 'script-breakout', class: 'scriptTag', value: `</textarea></title></style></script><script>window.${PWNED}=2</script>` },
  { name: 'img-onerror', class: 'eventHandler', value: `<img src=x onerror="window.${PWNED}=3">` },
  { name: 'svg-onload', class: 'eventHandler', value: `<svg/onload=window.${PWNED}=4><animate onbegin=window.${PWNED}=4 attributeName=x dur=1s>` },
  { name: 'attribute-breakout', class: 'eventHandler', value: `" autofocus onfocus="window.${PWNED}=5" x=' onmouseover='window.${PWNED}=5' y="` },
  { name: 'iframe-srcdoc', class: 'eventHandler', value: `<iframe srcdoc="<script>parent.${PWNED}=6</script>"></iframe><object data="javascript:window.${PWNED}=6"></object>` },
  { name: 'javascript-url', class: 'javascriptUrl', value: `javascript:window.${PWNED}=7//` },
  { name: 'javascript-url-obfuscated', class: 'javascriptUrl', value: ` \tJaVa\nScRiPt:window.${PWNED}=8` },
  { name: 'command-url', class: 'commandUrl', value: `command:${COMMAND_TARGET}` },
  {
    name: 'command-url-args',
    class: 'commandUrl',
    value: `command:workbench.action.terminal.sendSequence?${encodeURIComponent(JSON.stringify({ text: 'echo pwned\n' }))}`,
  },
  { name: 'vscode-url', class: 'vscodeUrl', value: 'vscode://langsmith-workbench.langsmith-workbench/pwned?x=1 vscode:extension/evil.pwned' },
  { name: 'markdown-link', class: 'markdownLink', value: `[Sign out](command:${COMMAND_TARGET}) [run](javascript:window.${PWNED}=9) [home](https://evil.invalid/)` },
  { name: 'markdown-image', class: 'markdownLink', value: '![tracking pixel](https://evil.invalid/pixel.png) ![x][img]\n\n[img]: https://evil.invalid/ref.png' },
  { name: 'markdown-reference', class: 'markdownLink', value: `[click me][1] <command:${COMMAND_TARGET}>\n\n[1]: command:${COMMAND_TARGET} "title"` },
  {
    name: 'markdown-html',
    class: 'markdownHtml',
    value: `<a href="command:${COMMAND_TARGET}">Sign out</a> <details open ontoggle="window.${PWNED}=10">x</details> **bold** \`code\` # heading\n---\n| a | b |`,
  },
  { name: 'long', class: 'longString', value: `<long>${'A'.repeat(LONG_LENGTH)}</long>` },
  { name: 'control-chars', class: 'controlChars', value: 'nul\u0000 bell\u0007 bs\b esc\u001b[31mred\u001b[0m del\u007f nel\u0085 cr\r lf\n tab\t ff\f vt\u000b end' },
  { name: 'rtl-override', class: 'rtlOverride', value: 'invoice\u202Efdp.exe\u202C \u2066isolate\u2069 zero\u200Bwidth\u200C\u200D bom\uFEFF \u200Fright' },
  { name: 'lone-surrogates', class: 'loneSurrogate', value: 'high\uD800 low\uDC00 reversed\uDC00\uD800 end' },
  { name: 'template-syntax', class: 'templateSyntax', value: `{{constructor.constructor('window.${PWNED}=11')()}} {__class__} \${window.${PWNED}=12} {{{raw}}} {{#each x}}` },
  { name: 'prototype-key', class: 'prototypeKey', value: '__proto__' },
  { name: 'path-like', class: 'pathLike', value: '../../../../tmp/lsw-escape /etc/passwd C:\\Windows\\win.ini \\\\server\\share CON' },
];

/** Object keys that are hostile as keys (inputs and outputs carry them). */
export const HOSTILE_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype', `<img src=x onerror="window.${PWNED}=13">`, `[k](command:${COMMAND_TARGET})`];

/** Names that must never become a path outside the folder a file is written to. */
export const HOSTILE_FILE_NAMES: readonly string[] = [
  '../../../../tmp/lsw-escape',
  '..',
  '.',
  '/etc/lsw-absolute',
  'C:\\Windows\\lsw-absolute',
  '\\\\server\\share\\lsw',
  'CON',
  'nul.txt',
  'lpt1',
  'Com9.json',
  'a'.repeat(1000),
  'ü'.repeat(300),
  'invoice\u202Efdp.exe',
  'tab\tnew\nline\u0000nul',
  ' ',
  '',
];

/**
 * JSON whose every string (and some keys) is the hostile text. Not `__proto__`: the server refuses a JSON body
 * with that key (prototype-poisoning protection), so server data cannot carry it; the webview tests send it.
 */
export function hostileJson(value: string): Record<string, unknown> {
  const out: Record<string, unknown> = { text: value, nested: { list: [value, { deep: value }] } };
  for (const key of HOSTILE_KEYS.filter((k) => k !== '__proto__')) Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true });
  return out;
}

/** A chat prompt manifest (the serialized LangChain form) whose templates carry the text. */
export function hostileManifest(value: string): Record<string, unknown> {
  const template = (cls: string, text: string) => ({
    lc: 1,
    type: 'constructor',
    id: ['langchain_core', 'prompts', 'chat', cls],
    kwargs: { prompt: { lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'prompt', 'PromptTemplate'], kwargs: { input_variables: [], template: text, template_format: 'mustache' } } },
  });
  return {
    lc: 1,
    type: 'constructor',
    id: ['langchain_core', 'prompts', 'chat', 'ChatPromptTemplate'],
    kwargs: { input_variables: [], template_format: 'mustache', messages: [template('SystemMessagePromptTemplate', value), template('HumanMessagePromptTemplate', `Q: ${value}`)] },
  };
}

export interface HostileItem {
  entry: HostileEntry;
  /** The suffix that makes this item's names unique: ` ~<tag>-<index>`. */
  suffix: string;
  project: { id: string; name: string };
  /** A finished root run, its child and a failed root run. */
  runs: { root: string; child: string; failed: string };
  feedback: string;
  dataset: { id: string; name: string };
  examples: string[];
  /** The split the examples are in, the dataset version's tag and the commit's tag: the hostile text itself (tags cut at 200). */
  split: string;
  prompt: { handle: string; commit: string };
  queue: { id: string; name: string };
}

export interface HostileObjects {
  tag: string;
  items: HostileItem[];
}

/**
 * Inserts one set of hostile objects per entry for the tenant of `server.apiKey`. Names get a unique suffix
 * (` ~<tag>-<i>`) so repeated runs do not collide and a view filtered by the tag shows just these; prompt
 * handles must match the server's charset, so the text goes into their description, readme, tags and templates.
 */
export async function insertHostile(server: ServerAddress, options: { tag?: string; entries?: readonly HostileEntry[] } = {}): Promise<HostileObjects> {
  const tag = options.tag ?? randomUUID().slice(0, 8);
  const entries = options.entries ?? HOSTILE;
  const items: HostileItem[] = [];
  const post = <T>(path: string, body: unknown) => okJson<T>(server, 'POST', path, body);
  const base = Date.now() - 60_000;
  for (const [i, entry] of entries.entries()) {
    const v = entry.value;
    const suffix = ` ~${tag}-${String(i).padStart(2, '0')}`;
    const project = await post<{ id: string; name: string }>('/sessions', { name: `${v}${suffix}`, description: v, extra: { metadata: { note: v } } });
    const at = (ms: number) => new Date(base + i * 1000 + ms).toISOString();
    const runs = { root: randomUUID(), child: randomUUID(), failed: randomUUID() };
    await post('/runs/batch', {
      post: [
        { id: runs.root, name: `${v}${suffix}`, run_type: 'chain', session_id: project.id, inputs: hostileJson(v), outputs: hostileJson(v), start_time: at(0), end_time: at(400), tags: [v], extra: { metadata: { note: v } } },
        {
          id: runs.child, parent_run_id: runs.root, name: v, run_type: 'chain', session_id: project.id, inputs: hostileJson(v), outputs: { answer: v }, start_time: at(10), end_time: at(300),
        },
        { id: runs.failed, name: `${v}${suffix}`, run_type: 'tool', session_id: project.id, inputs: { question: v }, error: v, start_time: at(500), end_time: at(600) },
      ],
    });
    const feedback = await post<{ id: string }>('/feedback', { run_id: runs.root, key: 'hostile', score: 0, comment: v, correction: { text: v } });

    const dataset = await post<{ id: string; name: string }>('/datasets', { name: `${v}${suffix}`, description: v });
    const examples = [randomUUID(), randomUUID()];
    const form = new FormData();
    const json = (o: unknown) => new Blob([JSON.stringify(o)], { type: 'application/json' });
    for (const id of examples) {
      form.append(id, json({ metadata: { note: v }, split: [v] }));
      form.append(`${id}.inputs`, json(hostileJson(v)));
      form.append(`${id}.outputs`, json({ answer: v }));
    }
    form.append(`${examples[0]}.attachment.../../lsw-escape.txt`, new Blob([v], { type: 'text/plain' }));
    const created = await rawRequest(server, 'POST', `/v1/platform/datasets/${dataset.id}/examples`, undefined, { rawBody: form });
    if (created.status !== 201) throw new Error(`adding hostile examples failed: ${created.status} ${created.text.slice(0, 300)}`);
    await okJson(server, 'PUT', `/datasets/${dataset.id}/tags`, { as_of: new Date().toISOString(), tag: v.slice(0, 200) });

    const handle = `hostile-${tag}-${String(i).padStart(2, '0')}`.toLowerCase();
    await post('/repos', { repo_handle: handle, description: v, readme: v, tags: [v], is_public: false });
    const { commit } = await post<{ commit: { id: string; commit_hash: string } }>(`/commits/-/${handle}`, { manifest: hostileManifest(v), description: v });
    await post(`/repos/-/${handle}/tags`, { tag_name: v.slice(0, 200), commit_id: commit.id });

    const queue = await post<{ id: string; name: string }>('/annotation-queues', { name: `${v}${suffix}`, description: v, rubric_instructions: v });
    await post(`/annotation-queues/${queue.id}/runs`, [runs.root, runs.failed]);

    items.push({ entry, suffix, project, runs, feedback: feedback.id, dataset, examples, split: v, prompt: { handle, commit: commit.commit_hash }, queue });
  }
  return { tag, items };
}

/**
 * Text made comparable whatever a server does with lone surrogates (kept, or stored as one or three U+FFFD): every
 * run of surrogates and replacement characters becomes one U+FFFD. Apply it to both sides of a comparison.
 */
export function comparable(text: string): string {
  return text.replace(/[\uD800-\uDFFF\uFFFD]+/g, '\uFFFD');
}
