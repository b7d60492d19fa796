// Prompt files (`*.prompt.yaml`): manifests round-trip through the file losslessly, the parser never throws and
// puts each problem where it is, written files read back as written, file names are safe, and the JSON schemas
// agree with the parser.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Validator } from '@cfworker/json-schema';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { MSG } from '../../src/client/messages';
import {
  asPromptYamlPath,
  fromManifest,
  isPromptFile,
  manifestAsPromptFile,
  parsePromptFile,
  parsePromptText,
  promptFileKind,
  promptFileName,
  promptFileFromRun,
  promptNamedBy,
  rewritePromptFile,
  runChatMessages,
  scanTemplate,
  toManifest,
  writePromptFile,
  type FileMessage,
  type FilePart,
  type ParsedPromptFile,
  type PromptFile,
  type PromptMeta,
} from '../../src/promptFile';

type Json = Record<string, unknown>;

// ---------- fixtures: manifests as LangSmith stores them ----------

const ctor = (id: string[], kwargs: Json, extra: Json = {}): Json => ({ lc: 1, type: 'constructor', id, kwargs, ...extra });
const promptTemplate = (root: string, template: string, vars: string[], format = 'f-string', extra: Json = {}) =>
  ctor([root, 'prompts', 'prompt', 'PromptTemplate'], { input_variables: vars, template_format: format, template, ...extra });
const message = (root: string, cls: string, prompt: unknown, kwargs: Json = {}) => ctor([root, 'prompts', 'chat', cls], { ...kwargs, prompt });
const placeholder = (root: string, name: string, optional?: boolean) =>
  ctor([root, 'prompts', 'chat', 'MessagesPlaceholder'], optional === undefined ? { variable_name: name } : { variable_name: name, optional });

/** A RAG prompt pulled from the hub, Python style: `langchain` ids, hub metadata, trailing blanks on lines. */
const ragPrompt = ctor(['langchain', 'prompts', 'chat', 'ChatPromptTemplate'], {
  input_variables: ['context', 'question'],
  metadata: { lc_hub_owner: 'acme', lc_hub_repo: 'rag-answer', lc_hub_commit_hash: '4f2d9b1c0e8a7d6f5e4c3b2a1908f7e6d5c4b3a2' },
  messages: [
    message(
      'langchain',
      'HumanMessagePromptTemplate',
      promptTemplate(
        'langchain',
        "You are an assistant for question-answering tasks. Use the retrieved context to answer. If you don't know, say so. \nQuestion: {question} \nContext: {context} \nAnswer:",
        ['context', 'question'],
      ),
    ),
  ],
});

/** A support chat from the JS client: `langchain_core` ids, a required history, literal JSON braces, a declared order of its own. */
const supportChat = ctor(['langchain_core', 'prompts', 'chat', 'ChatPromptTemplate'], {
  input_variables: ['question', 'chat_history', 'product'],
  partial_variables: {},
  messages: [
    message(
      'langchain_core',
      'SystemMessagePromptTemplate',
      promptTemplate(
        'langchain_core',
        'You support {product} customers.\nAnswer as JSON: {{"answer": "...", "confidence": 0.0}}\n  - be concise\n  - never promise refunds\n',
        ['product'],
      ),
    ),
    placeholder('langchain_core', 'chat_history'),
    message('langchain_core', 'HumanMessagePromptTemplate', promptTemplate('langchain_core', '{question}', ['question'])),
    message('langchain_core', 'AIMessagePromptTemplate', promptTemplate('langchain_core', "Sure — let's look at that: #1: check the cable.", [])),
  ],
});

/** A mustache triage prompt: sections, dotted names, an optional history with its partials, a custom role. */
const mustacheTriage = ctor(
  ['langchain', 'prompts', 'chat', 'ChatPromptTemplate'],
  {
    input_variables: ['items', 'ticket'],
    optional_variables: ['history'],
    partial_variables: { history: [] },
    input_types: { history: 'typing.List[typing.Union[langchain_core.messages.ai.AIMessage, langchain_core.messages.human.HumanMessage]]' },
    metadata: { lc_hub_owner: '-', lc_hub_repo: 'ticket-triage', lc_hub_commit_hash: '0a1b2c3d' },
    template_format: 'mustache',
    messages: [
      message('langchain', 'SystemMessagePromptTemplate', promptTemplate('langchain', 'Known categories:\n{{#items}}- {{.}}\n{{/items}}Pick one.', ['items'], 'mustache')),
      placeholder('langchain', 'history', true),
      message('langchain', 'HumanMessagePromptTemplate', promptTemplate('langchain', 'Subject: {{ticket.subject}}\n\n{{ticket.body}}', ['ticket'], 'mustache')),
      message('langchain', 'ChatMessagePromptTemplate', promptTemplate('langchain', 'Check the category against {{ticket.body}}.', ['ticket'], 'mustache'), { role: 'critic' }),
    ],
  },
  { name: 'ChatPromptTemplate' },
);

/** A string prompt (a bare PromptTemplate), declared order differs from the template's. */
const summarizeString = promptTemplate('langchain_core', 'Summarize the text below in {n_words} words.\n\n{text}\n', ['text', 'n_words']);

/** A mustache string prompt with a partial variable and metadata the file does not show. */
const mustacheString = promptTemplate(
  'langchain',
  'Tone: {{tone}}\n{{#docs}}\n* {{title}} ({{url}})\n{{/docs}}\nQuestion: {{question}}',
  ['docs', 'question'],
  'mustache',
  { partial_variables: { tone: 'friendly' }, metadata: { lc_hub_owner: 'acme', lc_hub_repo: 'doc-qa' } },
);

/** A prompt bound to a model in the playground: RunnableSequence of the prompt and ChatOpenAI. */
const boundAssistant = ctor(
  ['langchain', 'schema', 'runnable', 'RunnableSequence'],
  {
    first: ctor(['langchain', 'prompts', 'chat', 'ChatPromptTemplate'], {
      input_variables: ['language', 'code'],
      messages: [
        message('langchain', 'SystemMessagePromptTemplate', promptTemplate('langchain', 'You review {language} code.', ['language'])),
        message('langchain', 'HumanMessagePromptTemplate', promptTemplate('langchain', '```\n{code}\n```', ['code'])),
      ],
    }),
    last: ctor(['langchain', 'chat_models', 'openai', 'ChatOpenAI'], {
      model: 'gpt-4o-mini',
      temperature: 0.2,
      max_tokens: 1024,
      openai_api_key: { lc: 1, type: 'secret', id: ['OPENAI_API_KEY'] },
    }),
  },
  { name: 'RunnableSequence' },
);

/** A multi-part message: a text template and an image template kept as it is. */
const imageChat = ctor(['langchain_core', 'prompts', 'chat', 'ChatPromptTemplate'], {
  input_variables: ['audience', 'image_url'],
  messages: [
    message('langchain_core', 'SystemMessagePromptTemplate', promptTemplate('langchain_core', 'Describe images for {audience}.', ['audience'])),
    message('langchain_core', 'HumanMessagePromptTemplate', [
      promptTemplate('langchain_core', 'What is in this picture?', []),
      ctor(['langchain_core', 'prompts', 'image', 'ImagePromptTemplate'], {
        template: { url: '{image_url}', detail: 'high' },
        input_variables: ['image_url'],
        template_format: 'f-string',
      }),
    ]),
  ],
});

// The shapes our writer produces from a file alone (no base): `langchain_core` ids, nothing but what the file says.
const plainChat = ctor(['langchain_core', 'prompts', 'chat', 'ChatPromptTemplate'], {
  messages: [
    message('langchain_core', 'SystemMessagePromptTemplate', promptTemplate('langchain_core', 'You are {persona}.\nStay on topic.', ['persona'])),
    placeholder('langchain_core', 'history', true),
    placeholder('langchain_core', 'examples'),
    message('langchain_core', 'HumanMessagePromptTemplate', promptTemplate('langchain_core', '{question}', ['question'])),
    message('langchain_core', 'ChatMessagePromptTemplate', promptTemplate('langchain_core', 'Grade the answer to {question}.', ['question']), { role: 'grader' }),
  ],
  input_variables: ['persona', 'examples', 'question'],
});
const plainMustache = ctor(['langchain_core', 'prompts', 'chat', 'ChatPromptTemplate'], {
  messages: [
    message('langchain_core', 'SystemMessagePromptTemplate', promptTemplate('langchain_core', '{{#rules}}\n- {{.}}\n{{/rules}}', ['rules'], 'mustache')),
    message('langchain_core', 'HumanMessagePromptTemplate', promptTemplate('langchain_core', 'Hi, I am {{user.name}}.', ['user'], 'mustache')),
  ],
  input_variables: ['rules', 'user'],
});
const plainString = promptTemplate('langchain_core', 'Translate to {language}:\n\n{text}', ['language', 'text']);
const plainBound = ctor(['langchain_core', 'runnables', 'RunnableSequence'], {
  first: ctor(['langchain_core', 'prompts', 'chat', 'ChatPromptTemplate'], {
    messages: [message('langchain_core', 'HumanMessagePromptTemplate', promptTemplate('langchain_core', 'Tell me a joke about {topic}.', ['topic']))],
    input_variables: ['topic'],
  }),
  last: ctor(['langchain', 'chat_models', 'openai', 'ChatOpenAI'], { model: 'gpt-4o', temperature: 0.7 }),
});

interface Fixture {
  name: string;
  manifest: Json;
  meta: PromptMeta;
  plain: boolean;
}
const fixtures: Fixture[] = [
  { name: 'a Python RAG chat prompt (langchain ids, hub metadata)', manifest: ragPrompt, meta: { identifier: 'acme/rag-answer', description: 'Answers from context', tags: ['rag', 'qa'], isPublic: true }, plain: false },
  { name: 'a JS support chat (langchain_core ids, required placeholder, literal braces)', manifest: supportChat, meta: { identifier: 'support-chat', isPublic: false }, plain: false },
  { name: 'a mustache chat (sections, dotted names, optional placeholder, custom role, extra kwargs)', manifest: mustacheTriage, meta: { identifier: 'ticket-triage', readme: '# Triage\n\nRoutes tickets.\n' }, plain: false },
  { name: 'a string PromptTemplate', manifest: summarizeString, meta: { identifier: 'summarize' }, plain: false },
  { name: 'a mustache string prompt with partial variables and metadata', manifest: mustacheString, meta: { identifier: 'acme/doc-qa', description: 'Doc QA' }, plain: false },
  { name: 'a model-bound RunnableSequence with ChatOpenAI settings', manifest: boundAssistant, meta: { identifier: 'code-review' }, plain: false },
  { name: 'a multi-part message with an image template', manifest: imageChat, meta: { identifier: 'describe-image' }, plain: false },
  { name: 'a plain chat prompt as the writer makes it', manifest: plainChat, meta: { identifier: 'plain-chat' }, plain: true },
  { name: 'a plain mustache chat prompt', manifest: plainMustache, meta: {}, plain: true },
  { name: 'a plain string prompt', manifest: plainString, meta: { identifier: 'translate' }, plain: true },
  { name: 'a plain model-bound prompt', manifest: plainBound, meta: { identifier: 'jokes' }, plain: true },
];

// ---------- helpers ----------

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** JSON with keys sorted at every level: equal for manifests that differ only in key order. */
function canonical(v: unknown): string {
  const sort = (x: unknown): unknown =>
    Array.isArray(x) ? x.map(sort) : x && typeof x === 'object' ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, sort((x as Json)[k])])) : x;
  return JSON.stringify(sort(v));
}

/** The JSON paths where two values differ (`$.kwargs.messages[1]...`). */
function diffPaths(a: unknown, b: unknown, at = '$'): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys.flatMap((k) => diffPaths((a as Json)[k], (b as Json)[k], Array.isArray(a) ? `${at}[${k}]` : `${at}.${k}`));
  }
  return [at];
}

function errors(p: ParsedPromptFile) {
  return p.problems.filter((x) => x.severity === 'error');
}

function readBack(text: string): PromptFile {
  const parsed = parsePromptFile(text);
  assert.deepEqual(errors(parsed), [], `errors reading back:\n${text}`);
  assert.ok(parsed.file, 'a file without errors has a model');
  return parsed.file;
}

/** What a problem or variable points at. */
const at = (text: string, p: { offset: number; length: number }) => text.slice(p.offset, p.offset + p.length);

function only<T>(list: T[], what: string): T {
  assert.equal(list.length, 1, `expected one ${what}, got ${JSON.stringify(list)}`);
  return list[0]!;
}

const root = path.resolve(__dirname, '../..');
const fileSchema = JSON.parse(fs.readFileSync(path.join(root, 'media/prompt-file.schema.json'), 'utf8')) as Json;
const manifestSchema = JSON.parse(fs.readFileSync(path.join(root, 'media/prompt-manifest.schema.json'), 'utf8')) as Json;
const fileValidator = new Validator(fileSchema as never, '7', false);
const manifestValidator = new Validator(manifestSchema as never, '7', false);

// ---------- round trips over realistic manifests ----------

describe('prompt files: manifest ⇄ file round trips', () => {
  for (const f of fixtures) {
    describe(f.name, () => {
      const text = writePromptFile(fromManifest(f.manifest, f.meta), { header: true });

      it('reads back without errors and, onto its base, gives back the very manifest', () => {
        const file = readBack(text);
        const out = toManifest(file, f.manifest);
        assert.deepEqual(out, f.manifest);
        assert.equal(JSON.stringify(out), JSON.stringify(f.manifest), 'key order and every kwarg are kept');
        if (f.meta.identifier) assert.equal(file.identifier, f.meta.identifier);
      });

      it('keeps the templates without a base too', () => {
        const file = readBack(text);
        const again = fromManifest(toManifest(file));
        assert.deepEqual(again.body, file.body);
        assert.deepEqual(again.model, file.model);
      });

      if (f.plain) {
        it('gives the same manifest without a base (up to key order), being in the writer’s shape', () => {
          assert.equal(canonical(toManifest(readBack(text))), canonical(f.manifest));
        });
      }

      it('changes only the rewritten template’s node', () => {
        const file = readBack(text);
        const body = file.body;
        // The path of the rewritten PromptTemplate node.
        let node: string;
        if (body.kind === 'string') {
          body.template += '\nBe brief.';
          node = '$';
        } else {
          const i = body.messages.findIndex((m) => m.kind === 'message' && typeof m.template === 'string');
          const m = body.messages[i] as Extract<FileMessage, { kind: 'message' }>;
          m.template = `${m.template as string}\nBe brief.`;
          node = `${'first' in ((f.manifest.kwargs as Json) ?? {}) ? '$.kwargs.first' : '$'}.kwargs.messages[${i}].kwargs.prompt`;
        }
        const out = toManifest(file, f.manifest);
        const changed = diffPaths(f.manifest, out);
        assert.ok(changed.includes(`${node}.kwargs.template`), JSON.stringify(changed));
        // Within that node only the template and its variable list may change.
        for (const p of changed) assert.match(p, new RegExp(`^${node.replace(/[$.[\]]/g, '\\$&')}\\.kwargs\\.(template|input_variables(\\[\\d+\\])?)$`), p);
        // Read back, the manifest has the new template and every other one as it was.
        assert.deepEqual(fromManifest(out, f.meta).body, file.body);
      });

      it('is a valid prompt file by the JSON schema, and the manifest a valid manifest', () => {
        const v = fileValidator.validate(parseYaml(text));
        assert.ok(v.valid, JSON.stringify(v.errors.slice(0, 3)));
        assert.ok(manifestValidator.validate(f.manifest).valid);
      });
    });
  }

  it('a new variable changes that template’s node and the prompt’s input_variables, nothing else', () => {
    const file = readBack(manifestAsPromptFile(supportChat, { identifier: 'support-chat' }));
    assert.equal(file.body.kind, 'chat');
    const human = file.body.kind === 'chat' ? file.body.messages[2] : undefined;
    assert.ok(human?.kind === 'message');
    human.template = '{question}\n(Order: {order_id})';
    file.inputVariables = [...(file.inputVariables ?? []), 'order_id'];
    const out = toManifest(file, supportChat);
    assert.deepEqual(diffPaths(supportChat, out).sort(), [
      '$.kwargs.input_variables[3]',
      '$.kwargs.messages[2].kwargs.prompt.kwargs.input_variables[1]',
      '$.kwargs.messages[2].kwargs.prompt.kwargs.template',
    ]);
    assert.deepEqual((out.kwargs as Json)['input_variables'], ['question', 'chat_history', 'product', 'order_id']);
  });

  it('rewriting a file from a changed manifest keeps its comments and changes only that template’s lines', () => {
    const original = writePromptFile(fromManifest(supportChat, { identifier: 'support-chat' }), { header: true });
    const commented = original
      .replace('prompt: support-chat\n', 'prompt: support-chat # pulled from the hub\n')
      .replace('messages:\n', '# reviewed by legal\nmessages:\n')
      .replace('  - role: human\n', '  # the customer\n  - role: human\n');
    const changed = clone(supportChat);
    const human = ((changed.kwargs as Json)['messages'] as Json[])[2]!;
    ((human['kwargs'] as Json)['prompt'] as Json)['kwargs'] = { input_variables: ['question'], template_format: 'f-string', template: 'Question: {question}' };
    const rewritten = rewritePromptFile(commented, fromManifest(changed, { identifier: 'support-chat' }));
    const before = commented.split('\n');
    const after = rewritten.split('\n');
    assert.equal(after.length, before.length);
    const differing = before.map((line, i) => [line, after[i]]).filter(([a, b]) => a !== b);
    assert.deepEqual(differing, [['    template: "{question}"', '    template: "Question: {question}"']]);
    assert.match(rewritten, /^prompt: support-chat # pulled from the hub$/m);
    assert.match(rewritten, /^# reviewed by legal\nmessages:$/m);
    assert.match(rewritten, /^ {2}# the customer\n {2}- role: human$/m);
    assert.deepEqual(toManifest(readBack(rewritten), supportChat), changed);
  });

  it('writes what a reader expects to see: roles, placeholders, model class and settings', () => {
    const text = manifestAsPromptFile(mustacheTriage, { identifier: 'ticket-triage' });
    assert.match(text, /^template_format: mustache$/m);
    assert.match(text, /^ {2}- placeholder: history\n {4}optional: true$/m);
    assert.match(text, /^ {2}- chat_role: critic$/m);
    const bound = manifestAsPromptFile(boundAssistant);
    assert.match(bound, /^model:\n {2}class: langchain\.chat_models\.openai\.ChatOpenAI\n {2}model: gpt-4o-mini\n {2}temperature: 0\.2$/m);
    const multi = readBack(manifestAsPromptFile(imageChat));
    const parts = multi.body.kind === 'chat' && multi.body.messages[1]?.kind === 'message' ? (multi.body.messages[1].template as FilePart[]) : [];
    assert.deepEqual(parts.map((p) => p.type), ['text', 'raw']);
  });
});

// ---------- properties ----------

/** Literal text of a template: everything a writer must keep, braces doubled for f-strings. */
const literalPiece = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('\n', '\n\n', '  ', ' ', '\t', '#', ' #', '# ', ': ', ':', '"', "'", '\\', '- ', '? ', '|', '>', '---', '...', '%', '@', '`', '&a', '*a', '!x', '[', ']', ',', 'null', 'true', '~', '0x1F', '1e3', ' \n', '\n ', 'é', 'Ωmega', '日本語', '😀', '\u00a0', '\u2028', '\u0085', '\ufeff', '\r\n', '\r', '\u0007', '\u0000') },
  { weight: 3, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) },
);
const variableName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,7}$/);
const fstringText = fc
  .array(fc.oneof(literalPiece.map((s) => s.replace(/[{}]/g, (c) => c + c)), fc.constantFrom('{{', '}}'), variableName.map((n) => `{${n}}`)), { maxLength: 12 })
  .map((a) => a.join(''));
const mustacheLiteral = literalPiece.map((s) => s.replace(/[{}]/g, ''));
const mustacheText = fc
  .array(
    fc.oneof(
      mustacheLiteral,
      variableName.map((n) => `{{${n}}}`),
      fc.tuple(variableName, variableName).map(([a, b]) => `{{${a}.${b}}}`),
      fc.tuple(variableName, mustacheLiteral).map(([n, t]) => `{{#${n}}}${t}{{.}}{{/${n}}}`),
      fc.tuple(variableName, mustacheLiteral).map(([n, t]) => `{{^${n}}}${t}{{/${n}}}`),
    ),
    { maxLength: 10 },
  )
  .map((a) => a.join(''));
const templateOf = (format: 'f-string' | 'mustache') => (format === 'mustache' ? mustacheText : fstringText);
const imagePart = fc.webUrl().map((url): FilePart => ({
  type: 'raw',
  raw: { lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'image', 'ImagePromptTemplate'], kwargs: { template: { url }, input_variables: [], template_format: 'f-string' } },
}));

const fileMessage = (fileFormat: 'f-string' | 'mustache'): fc.Arbitrary<FileMessage> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.record({ role: fc.constantFrom('system', 'human', 'ai'), format: fc.constantFrom(fileFormat, fileFormat, 'f-string', 'mustache') }).chain(({ role, format }) =>
      templateOf(format).map((template): FileMessage => ({ kind: 'message', role, chatRole: false, template, templateFormat: format })),
    ) },
    { weight: 1, arbitrary: fc.tuple(fc.stringMatching(/^[a-z][a-z_]{1,9}$/).filter((r) => !['system', 'human', 'ai'].includes(r)), templateOf(fileFormat)).map(
      ([role, template]): FileMessage => ({ kind: 'message', role, chatRole: true, template, templateFormat: fileFormat }),
    ) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('human', 'system'), templateOf(fileFormat), fc.array(fc.oneof(templateOf(fileFormat).map((text): FilePart => ({ type: 'text', text })), imagePart), { maxLength: 3 })).map(
      ([role, first, rest]): FileMessage => ({ kind: 'message', role, chatRole: false, template: [{ type: 'text', text: first }, ...rest], templateFormat: fileFormat }),
    ) },
    { weight: 1, arbitrary: fc.tuple(variableName, fc.boolean()).map(([name, optional]): FileMessage => ({ kind: 'placeholder', name, optional })) },
  );

const promptName = fc.stringMatching(/^[a-z0-9][a-z0-9_.-]{0,15}$/);
/** Prompt files of either format (arbitraries built once: building them per sample is slow). */
const fileOfFormat = (templateFormat: 'f-string' | 'mustache'): fc.Arbitrary<PromptFile> =>
  fc
    .record({
      identifier: fc.option(fc.oneof(promptName, fc.tuple(fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,8}$/), promptName).map(([o, n]) => `${o}/${n}`)), { nil: undefined }),
      description: fc.option(fc.array(literalPiece, { maxLength: 4 }).map((a) => a.join('')), { nil: undefined }),
      readme: fc.option(fc.array(literalPiece, { maxLength: 6 }).map((a) => a.join('')), { nil: undefined }),
      tags: fc.option(fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }), { nil: undefined }),
      visibility: fc.option(fc.constantFrom<'public' | 'private'>('public', 'private'), { nil: undefined }),
      inputVariables: fc.option(fc.uniqueArray(variableName, { maxLength: 4 }), { nil: undefined }),
      body: fc.oneof(
        { weight: 3, arbitrary: fc.array(fileMessage(templateFormat), { minLength: 1, maxLength: 5 }).map((messages): PromptFile['body'] => ({ kind: 'chat', messages })) },
        { weight: 1, arbitrary: templateOf(templateFormat).map((template): PromptFile['body'] => ({ kind: 'string', template })) },
      ),
      model: fc.option(
        fc.record({ model: fc.constantFrom('gpt-4o', 'gpt-4o-mini', 'o3'), temperature: fc.integer({ min: 0, max: 200 }).map((n) => n / 100), max_tokens: fc.integer({ min: 1, max: 4096 }), stop: fc.array(literalPiece, { maxLength: 2 }) }).map((settings) => ({
          id: ['langchain', 'chat_models', 'openai', 'ChatOpenAI'],
          settings: { ...settings } as Record<string, unknown>,
        })),
        { nil: undefined },
      ),
    })
    // No keys with undefined values: the reader leaves out what the file does not say.
    .map((r) => Object.fromEntries(Object.entries({ ...r, templateFormat }).filter(([, v]) => v !== undefined)) as unknown as PromptFile);
const generatedFile = fc.oneof(fileOfFormat('f-string'), fileOfFormat('mustache'));

/** Messages as the manifest keeps them (a chat's file-level format is not stored; each message's is). */
function templatesOf(file: PromptFile): unknown {
  return file.body.kind === 'string' ? { template: file.body.template, format: file.templateFormat } : file.body.messages;
}

const validFile = writePromptFile(fromManifest(mustacheTriage, { identifier: 'ticket-triage', description: 'Triage', tags: ['support'] }), { header: true })
  + writePromptFile(fromManifest(boundAssistant)).replace(/^(prompt|template_format|input_variables|messages):/gm, 'x_$1:');

type Mutation =
  | { op: 'insert'; at: number; text: string }
  | { op: 'delete'; at: number; length: number }
  | { op: 'nest'; at: number; depth: number; open: string }
  | { op: 'alias'; at: number; text: string };
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: fc.oneof(fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 6 }), fc.constantFrom('\n', ': ', '- ', '"', "'", '{', '}', '{{', '}}', '|', '>-', '\t', '#', '? ', '!!map ', '!!binary ', '%YAML 1.2\n---\n', '---\n', '...\n', '<<: *a\n')) }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ op: fc.constant('nest' as const), at: fc.nat(), depth: fc.integer({ min: 1, max: 2000 }), open: fc.constantFrom('[', '{', '- ', '{a: ') }),
  fc.record({ op: fc.constant('alias' as const), at: fc.nat(), text: fc.constantFrom('&a ', '*a', '&b [*a, *a, *a, *a, *a, *a, *a, *a] ', '*b', '&c [*b, *b, *b, *b, *b, *b, *b, *b] ', '*c', '*undefined_anchor') }),
);

function mutate(text: string, ms: Mutation[]): string {
  for (const m of ms) {
    const i = m.at % (text.length + 1);
    if (m.op === 'insert' || m.op === 'alias') text = text.slice(0, i) + m.text + text.slice(i);
    else if (m.op === 'delete') text = text.slice(0, i) + text.slice(i + m.length);
    else {
      const close = m.open === '[' ? ']' : m.open === '{' ? '}' : m.open === '{a: ' ? '}' : '';
      text = text.slice(0, i) + m.open.repeat(m.depth) + 'x' + close.repeat(m.depth) + text.slice(i);
    }
  }
  return text;
}

/** Parses, and checks the result is well formed and came in good time. */
function parsesSafely(text: string): void {
  const started = performance.now();
  const parsed = parsePromptFile(text);
  const ms = performance.now() - started;
  assert.ok(ms < 1500, `parsing took ${ms.toFixed(0)} ms`);
  assert.ok(Array.isArray(parsed.problems) && Array.isArray(parsed.variables) && Array.isArray(parsed.templates));
  for (const p of [...parsed.problems, ...parsed.variables]) {
    assert.ok(Number.isInteger(p.offset) && p.offset >= 0 && p.offset <= text.length, `offset ${p.offset} of ${text.length}`);
    assert.ok(Number.isInteger(p.length) && p.length >= 0);
  }
  for (const p of parsed.problems) assert.ok(typeof p.message === 'string' && p.message.length > 0);
  // A model is given exactly when there is no error.
  assert.equal(parsed.file !== undefined, errors(parsed).length === 0);
}

describe('prompt files: properties', function () {
  this.timeout(20000);

  it('parsePromptFile never throws on arbitrary text', () => {
    const yamlish = fc.array(fc.constantFrom('messages:', 'template:', 'role: human', '\n', '  ', '- ', '{', '}', '[', ']', '&a ', '*a', '!!str ', '"', "'", '|', '>', '#', ':', 'template_format: mustache', 'model:', 'class: a.B', '{{#x}}', '{x}', '\t'), { maxLength: 40 }).map((a) => a.join(''));
    fc.assert(fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 200 }), yamlish), parsesSafely), { numRuns: 300 });
  });

  it('parsePromptFile never throws on mutations of a valid file (edits, unicode, deep nesting, anchors and aliases)', () => {
    assert.equal(errors(parsePromptFile(validFile)).length, 0, 'the file mutated starts valid');
    fc.assert(fc.property(fc.array(mutation, { minLength: 1, maxLength: 6 }), (ms) => parsesSafely(mutate(validFile, ms))), { numRuns: 300 });
  });

  it('a written file reads back as the same prompt file, and its manifest keeps the templates', () => {
    fc.assert(
      fc.property(generatedFile, fc.boolean(), (file, header) => {
        const text = writePromptFile(file, { header });
        const parsed = parsePromptFile(text);
        assert.deepEqual(errors(parsed), [], text);
        assert.deepEqual(parsed.file, file);
        const manifest = toManifest(parsed.file!);
        assert.deepEqual(templatesOf(fromManifest(manifest)), templatesOf(file));
        assert.deepEqual(fromManifest(manifest).model, file.model);
        // Written files are valid by the schema too.
        const v = fileValidator.validate(parseYaml(text));
        assert.ok(v.valid, `${JSON.stringify(v.errors.slice(0, 2))}\n${text}`);
      }),
      { numRuns: 300 },
    );
  });

  it('rewriting a written file with another prompt gives that prompt', () => {
    fc.assert(
      fc.property(generatedFile, generatedFile, (a, b) => {
        assert.deepEqual(readBack(rewritePromptFile(writePromptFile(a, { header: true }), b)), b);
      }),
      { numRuns: 100 },
    );
  });

  it('promptFileName gives a safe file name for any prompt name', () => {
    const reserved = /^(con|prn|aux|nul|com\d|lpt\d|conin\$|conout\$)$/i;
    const nasty = fc.constantFrom('..', '.', '../../etc/passwd', '..\\..\\windows', '/abs/path', 'C:\\x', 'c:', 'CON', 'con.txt', 'nul', 'Com1', 'LPT9.log', 'ＣＯＮ', 'COM¹', 'aux.', ' prn ', 'a/b', 'owner/name', '\u0000', '', '-', '.hidden', 'x'.repeat(300));
    fc.assert(
      fc.property(fc.oneof(nasty, fc.string({ maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 30 }), fc.array(fc.constantFrom('.', '/', '\\', 'con', 'a', ':', ' '), { maxLength: 8 }).map((a) => a.join(''))), (name) => {
        const file = promptFileName(name);
        assert.ok(file.endsWith('.prompt.yaml'), file);
        const base = file.slice(0, -'.prompt.yaml'.length);
        assert.ok(base.length > 0 && base !== '.' && base !== '..', file);
        assert.ok(!file.includes('..'), file);
        assert.ok(!/[/\\:]|\p{Cc}/u.test(file), file);
        assert.ok(!path.posix.isAbsolute(file) && !path.win32.isAbsolute(file), file);
        assert.ok(!reserved.test(file.split('.')[0]!), file);
        assert.equal(path.basename(file), file);
      }),
      { numRuns: 300 },
    );
    assert.equal(promptFileName('acme/rag-answer'), 'acme-rag-answer.prompt.yaml');
    assert.equal(promptFileName('summarize'), 'summarize.prompt.yaml');
  });
});

// ---------- diagnostics ----------

/** A one-message chat file whose template is `scalar` (as written after `template: `). */
const chatWith = (scalar: string, extra = '') => `prompt: diag\ntemplate_format: f-string\n${extra}messages:\n  - role: human\n    template: ${scalar}\n`;

describe('prompt files: problems and their places', () => {
  it('an unclosed { in a plain scalar points at that brace', () => {
    const text = chatWith('Hello {name}, see {this and more');
    const p = only(errors(parsePromptFile(text)), 'error');
    assert.equal(p.message, MSG.unclosedBrace);
    assert.equal(p.code, 'template');
    assert.equal(p.offset, text.indexOf('{this'));
    assert.equal(at(text, p), '{');
  });

  it('a single } in a plain scalar points at that brace', () => {
    const text = chatWith('Hello {name} and } bye');
    const p = only(errors(parsePromptFile(text)), 'error');
    assert.equal(p.message, MSG.singleBrace);
    assert.equal(p.offset, text.indexOf('} bye'));
    assert.equal(at(text, p), '}');
  });

  it('places errors in a double-quoted scalar after escapes', () => {
    const text = chatWith(String.raw`"Tab:\t \"quoted\" caf\u00e9 \x41 line\nnext {oops"`);
    const p = only(errors(parsePromptFile(text)), 'error');
    assert.equal(p.message, MSG.unclosedBrace);
    assert.equal(p.offset, text.indexOf('{oops'));
    assert.equal(at(text, p), '{');
    const text2 = chatWith(String.raw`"\"q\" \u00e9\\ and } here {ok}"`);
    const p2 = only(errors(parsePromptFile(text2)), 'error');
    assert.equal(p2.message, MSG.singleBrace);
    assert.equal(p2.offset, text2.indexOf('} here'));
  });

  it('places errors in a single-quoted scalar after doubled quotes', () => {
    const text = chatWith(`'it''s {x} and it''s } wrong'`);
    const p = only(errors(parsePromptFile(text)), 'error');
    assert.equal(p.message, MSG.singleBrace);
    assert.equal(p.offset, text.indexOf('} wrong'));
  });

  it('places errors on the third line of a block literal', () => {
    const text = chatWith('|\n      Line one {first}\n      line two\n      line three } then {second and more\n');
    const problems = errors(parsePromptFile(text));
    assert.equal(problems.length, 2, JSON.stringify(problems));
    const unclosed = problems.find((p) => p.message === MSG.unclosedBrace)!;
    const single = problems.find((p) => p.message === MSG.singleBrace)!;
    assert.equal(unclosed.offset, text.indexOf('{second'));
    assert.equal(single.offset, text.indexOf('} then'));
    assert.equal(at(text, unclosed), '{');
    assert.equal(at(text, single), '}');
    // Both on the block's third line.
    const lineOf = (o: number) => text.slice(0, o).split('\n').length;
    assert.equal(lineOf(unclosed.offset), lineOf(text.indexOf('Line one')) + 2);
    assert.equal(lineOf(single.offset), lineOf(unclosed.offset));
  });

  it('a variable that is not a name is an error at the name', () => {
    const text = chatWith('"Use {user name} here"');
    const p = only(errors(parsePromptFile(text)), 'error');
    assert.match(p.message, /“\{user name\}” is not a variable name/);
    assert.equal(at(text, p), 'user name');
  });

  it('an invalid template_format is the client’s message at the value, at the top and in a message', () => {
    const text = 'prompt: diag\ntemplate_format: jinja2\ntemplate: Hello {name}\n';
    const p = only(errors(parsePromptFile(text)), 'error');
    assert.equal(p.message, MSG.invalidTemplateFormat('jinja2'));
    assert.equal(p.code, 'format');
    assert.equal(at(text, p), 'jinja2');
    const text2 = 'messages:\n  - role: human\n    template_format: handlebars\n    template: "{{x}}"\n';
    const p2 = only(errors(parsePromptFile(text2)), 'error');
    assert.equal(p2.message, MSG.invalidTemplateFormat('handlebars'));
    assert.equal(at(text2, p2), 'handlebars');
  });

  it('an unknown role is an error at the role, with a hint for user and assistant', () => {
    const text = 'messages:\n  - role: system\n    template: Hi\n  - role: user\n    template: "{q}"\n  - role: critic\n    template: ok\n';
    const problems = errors(parsePromptFile(text));
    assert.equal(problems.length, 2);
    assert.equal(problems[0]!.code, 'role');
    assert.match(problems[0]!.message, /Unknown role “user” \(use human\)/);
    assert.equal(at(text, problems[0]!), 'user');
    assert.equal(at(text, problems[1]!), 'critic');
    // chat_role takes any role.
    assert.deepEqual(errors(parsePromptFile(text.replace('role: critic', 'chat_role: critic').replace('role: user', 'role: human'))), []);
  });

  it('malformed YAML is a yaml error and no prompt', () => {
    for (const text of ['messages:\n  - role: human\n   template: "x"\n  bad', 'prompt: [unclosed\n', 'messages: "open\n', 'a: 1\na: 2\nmessages: []\n']) {
      const parsed = parsePromptFile(text);
      assert.equal(parsed.file, undefined, text);
      const p = errors(parsed)[0];
      assert.ok(p, text);
      assert.equal(p.code, 'yaml', text);
      assert.ok(p.offset >= 0 && p.offset <= text.length && p.length >= 1);
    }
  });

  it('a variable used but not declared is a warning at the use; declared but unused is a hint at the declaration', () => {
    const text = 'prompt: diag\ninput_variables:\n  - question\n  - extra\nmessages:\n  - role: human\n    template: "{question} in {context}"\n';
    const parsed = parsePromptFile(text);
    assert.ok(parsed.file, 'warnings and hints keep the prompt');
    const warning = only(parsed.problems.filter((p) => p.severity === 'warning'), 'warning');
    assert.equal(warning.code, 'undeclared');
    assert.match(warning.message, /“context” is used in messages\[1\] \(human\) but not declared/);
    assert.equal(warning.offset, text.indexOf('context'));
    assert.equal(at(text, warning), 'context');
    const hint = only(parsed.problems.filter((p) => p.severity === 'hint'), 'hint');
    assert.equal(hint.code, 'unused');
    assert.equal(at(text, hint), 'extra');
    assert.equal(hint.offset, text.indexOf('extra'));
  });

  it('a mustache section left open is an error', () => {
    const text = 'template_format: mustache\nmessages:\n  - role: human\n    template: "{{#items}}{{.}}"\n';
    const p = only(errors(parsePromptFile(text)), 'error');
    assert.equal(p.code, 'template');
    assert.match(p.message, /^Invalid mustache template: Unclosed section "items"/);
    assert.ok(p.offset >= text.indexOf('"{{#') && p.offset < text.indexOf('\n', text.indexOf('"{{#')));
  });

  it('messages and template together are an error, and neither is one too', () => {
    const both = 'messages:\n  - role: human\n    template: hi\ntemplate: hello\n';
    const p = only(errors(parsePromptFile(both)), 'error');
    assert.equal(p.code, 'shape');
    assert.match(p.message, /either `messages` .* or `template` .*, not both/);
    assert.equal(at(both, p), 'hello');
    assert.equal(only(errors(parsePromptFile('prompt: x\n')), 'error').code, 'shape');
  });

  it('lists every variable with its place for hover', () => {
    const text = [
      'prompt: hover',
      'template_format: mustache',
      'input_variables: [ticket, items, history]',
      'messages:',
      '  - role: system',
      '    template: "{{#items}}- {{name}}{{/items}}"',
      '  - placeholder: history',
      '  - role: human',
      '    template_format: f-string',
      '    template: |',
      '      Subject: {subject}',
      '      Body: {body}',
      '  - role: ai',
      '    template: "Re: {{ ticket.subject }}"',
      '',
    ].join('\n');
    const parsed = parsePromptFile(text);
    const seen = parsed.variables.map((v) => ({ name: v.name, where: v.where, label: v.label, text: at(text, v) }));
    assert.deepEqual(seen, [
      { name: 'ticket', where: 'declaration', label: 'input_variables', text: 'ticket' },
      { name: 'items', where: 'declaration', label: 'input_variables', text: 'items' },
      { name: 'history', where: 'declaration', label: 'input_variables', text: 'history' },
      { name: 'items', where: 'template', label: 'messages[1] (system)', text: 'items' },
      { name: 'history', where: 'template', label: 'messages[2] (placeholder)', text: 'history' },
      { name: 'subject', where: 'template', label: 'messages[3] (human)', text: 'subject' },
      { name: 'body', where: 'template', label: 'messages[3] (human)', text: 'body' },
      { name: 'ticket', where: 'template', label: 'messages[4] (ai)', text: 'ticket' },
    ]);
    assert.equal(parsed.variables[5]!.offset, text.indexOf('subject}'));
    assert.equal(parsed.variables[7]!.offset, text.indexOf('ticket.subject'));
    // Each template's span covers its text, with its format.
    assert.deepEqual(parsed.templates.map((t) => [text.slice(t.offset, t.end), t.format]), [
      ['{{#items}}- {{name}}{{/items}}', 'mustache'],
      ['Subject: {subject}\n      Body: {body}\n', 'f-string'],
      ['Re: {{ ticket.subject }}', 'mustache'],
    ]);
    // subject and body are used but not declared.
    assert.deepEqual(parsed.problems.filter((p) => p.code === 'undeclared').map((p) => at(text, p)), ['subject', 'body']);
  });

  it('the variables of an image part count as used', () => {
    const text = manifestAsPromptFile(imageChat, { identifier: 'describe-image' });
    const parsed = parsePromptFile(text);
    assert.deepEqual(parsed.problems.filter((p) => p.severity !== 'info'), []);
    const image = parsed.variables.find((v) => v.name === 'image_url' && v.where === 'template');
    assert.ok(image);
    assert.equal(at(text, image), 'image_url');
    assert.equal(image.label, 'messages[2] (human) part 2');
  });

  it('aliases in model settings and raw parts are resolved, and an alias bomb is an error, not a hang', () => {
    const text = 'defaults: &t 0.3\nmessages:\n  - role: human\n    template: hi\nmodel:\n  class: langchain.chat_models.openai.ChatOpenAI\n  temperature: *t\n';
    assert.deepEqual(parsePromptFile(text).file?.model, { id: ['langchain', 'chat_models', 'openai', 'ChatOpenAI'], settings: { temperature: 0.3 } });
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]', 'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]', 'messages: []', 'model: {class: a.B, z: *d}', ''].join('\n');
    const parsed = parsePromptFile(bomb);
    assert.equal(parsed.file, undefined);
    assert.ok(errors(parsed).some((p) => p.code === 'yaml' && /alias/i.test(p.message)));
  });

  it('scanTemplate agrees with the client’s f-string rules and finds mustache names at the top level only', () => {
    assert.deepEqual(scanTemplate('{{literal}} {a} {b}', 'f-string').variables.map((v) => v.name), ['a', 'b']);
    assert.deepEqual(scanTemplate('a } b', 'f-string').issues, [{ message: MSG.singleBrace, index: 2, length: 1 }]);
    assert.deepEqual(scanTemplate('{{#items}}{{name}}{{/items}} {{user.id}}', 'mustache').variables.map((v) => v.name), ['items', 'user']);
  });
});

// ---------- JSON schemas ----------

describe('prompt file JSON schemas', () => {
  it('gives every property a title and a description (they show on hover)', () => {
    const missing: string[] = [];
    const walk = (s: unknown, at: string) => {
      if (!s || typeof s !== 'object') return;
      const o = s as Json;
      if (o['properties']) {
        for (const [k, v] of Object.entries(o['properties'] as Json)) {
          const p = v as Json;
          if (typeof p['title'] !== 'string' || typeof p['description'] !== 'string') missing.push(`${at}.${k}`);
          walk(p, `${at}.${k}`);
        }
      }
      for (const key of ['definitions', 'items']) if (o[key]) walk(key === 'definitions' ? { properties: o[key] } : o[key], `${at}/${key}`);
      for (const key of ['oneOf', 'anyOf', 'allOf']) if (Array.isArray(o[key])) (o[key] as unknown[]).forEach((x, i) => walk(x, `${at}/${key}[${i}]`));
    };
    walk(fileSchema, '#');
    walk(manifestSchema, '#');
    assert.deepEqual(missing, []);
    assert.equal(fileSchema['$schema'], 'http://json-schema.org/draft-07/schema#');
  });

  it('takes every top key the reader knows, and no other', () => {
    assert.deepEqual(Object.keys(fileSchema['properties'] as Json).sort(), ['description', 'input_variables', 'messages', 'model', 'prompt', 'readme', 'tags', 'template', 'template_format', 'visibility']);
    assert.equal(fileSchema['additionalProperties'], false);
  });

  it('rejects files the reader rejects', () => {
    const invalid: [string, string][] = [
      ['both messages and template', 'messages:\n  - role: human\n    template: hi\ntemplate: hello\n'],
      ['neither messages nor template', 'prompt: x\n'],
      ['an unknown role', 'messages:\n  - role: user\n    template: hi\n'],
      ['an unknown template format', 'template_format: jinja2\ntemplate: hi\n'],
      ['a bad visibility', 'visibility: internal\ntemplate: hi\n'],
      ['a bad prompt name', 'prompt: a/b/c\ntemplate: hi\n'],
      ['a message without template', 'messages:\n  - role: human\n'],
      ['a placeholder with a bad name', 'messages:\n  - placeholder: chat history\n'],
      ['a content part that is neither text nor raw', 'messages:\n  - role: human\n    template:\n      - image: x.png\n'],
      ['a model without class', 'template: hi\nmodel:\n  temperature: 0.5\n'],
      ['optional that is not a boolean', 'messages:\n  - placeholder: history\n    optional: maybe\n'],
    ];
    for (const [what, text] of invalid) {
      assert.equal(fileValidator.validate(parseYaml(text)).valid, false, `the schema accepts ${what}`);
      assert.ok(errors(parsePromptFile(text)).length > 0, `the reader accepts ${what}`);
    }
    assert.equal(fileValidator.validate(parseYaml('template: hi\nunknown: 1\n')).valid, false, 'unknown top keys');
    assert.equal(fileValidator.validate(parseYaml('messages:\n  - role: human\n    chat_role: critic\n    template: hi\n')).valid, false, 'role and chat_role');
  });

  it('accepts hand-written files the reader accepts', () => {
    const valid = [
      'prompt: owner/name\ndescription: null\ntemplate_format: mustache\ntemplate: "{{x}}"\n',
      'messages:\n  - chat_role: critic\n    template_format: f-string\n    template: "{x}"\n  - placeholder: history\n    optional: false\n',
      'messages:\n  - role: human\n    template:\n      - text: Look\n      - raw: {lc: 1, type: constructor, id: [a, B], kwargs: {}}\nmodel:\n  class: langchain_anthropic.chat_models.ChatAnthropic\n  model: claude-sonnet\n  max_tokens: null\n',
    ];
    for (const text of valid) {
      assert.deepEqual(errors(parsePromptFile(text)), [], text);
      const v = fileValidator.validate(parseYaml(text));
      assert.ok(v.valid, `${text}\n${JSON.stringify(v.errors.slice(0, 2))}`);
    }
  });

  it('the manifest schema takes LangChain objects and rejects what is not one', () => {
    for (const m of [ragPrompt, boundAssistant, summarizeString]) assert.ok(manifestValidator.validate(m).valid);
    for (const bad of [{ lc: 1, type: 'constructor' }, { lc: '1', type: 'constructor', id: ['a'] }, { lc: 1, type: 'constructor', id: [1, 2] }, { lc: 1, type: 'constructor', id: ['a'], kwargs: [] }, ['not', 'an', 'object']]) {
      assert.equal(manifestValidator.validate(bad).valid, false, JSON.stringify(bad));
    }
  });
});

describe('prompt-file names', () => {
  it('tells a prompt file by its name, in any case, and its kind', () => {
    for (const yaml of ['a.prompt.yaml', 'dir/a.prompt.yml', 'A.PROMPT.YAML']) assert.equal(promptFileKind(yaml), 'yaml', yaml);
    assert.equal(promptFileKind('/w/a.Prompt.Json'), 'json');
    for (const other of ['a.yaml', 'a.prompt', 'a.prompt.yaml.bak', 'a.prompty', 'prompt.yaml']) assert.equal(isPromptFile(other), false, other);
    assert.equal(isPromptFile('/w/x.prompt.json'), true);
  });

  it('a Pull target becomes a YAML prompt file', () => {
    assert.equal(asPromptYamlPath('/w/a.prompt.yml'), '/w/a.prompt.yml');
    assert.equal(asPromptYamlPath('/w/a.yaml'), '/w/a.prompt.yaml');
    assert.equal(asPromptYamlPath('/w/a'), '/w/a.prompt.yaml');
  });

  it('names the prompt of a file: its `prompt:` even with problems elsewhere, a raw manifest by its file name', () => {
    const broken = 'prompt: acme/triage # the team’s\ntemplate_format: jinja2\n';
    assert.equal(promptNamedBy(parsePromptFile(broken), broken), 'acme/triage');
    const none = 'template_format: f-string\ntemplate: hi\n';
    assert.equal(promptNamedBy(parsePromptFile(none), none), undefined);
    const manifest = JSON.stringify(toManifest({ templateFormat: 'f-string', body: { kind: 'string', template: 'Hi {name}' } }));
    const parsed = parsePromptText(manifest, '/w/greeting.prompt.json');
    assert.equal(promptNamedBy(parsed, manifest), 'greeting');
  });
});

describe('an llm run as a prompt file (Open Run in Playground)', () => {
  it('reads OpenAI messages, with text parts, and skips tool results', () => {
    const inputs = {
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: [{ type: 'text', text: 'Weather in {city}?' }, { type: 'image_url', image_url: { url: 'https://x/y.png' } }] },
        { role: 'assistant', content: 'Checking.', tool_calls: [] },
        { role: 'tool', content: '{"temp": 21}', tool_call_id: 'c1' },
      ],
    };
    assert.deepEqual(runChatMessages(inputs), [
      { role: 'system', text: 'You are terse.' },
      { role: 'human', text: 'Weather in {city}?' },
      { role: 'ai', text: 'Checking.' },
    ]);
  });

  it('reads LangChain’s serialized and dict messages, nested as llm runs have them', () => {
    const inputs = {
      messages: [[
        { lc: 1, type: 'constructor', id: ['langchain', 'schema', 'messages', 'SystemMessage'], kwargs: { content: 'Be kind.' } },
        { type: 'human', data: { content: 'Hello' } },
      ]],
    };
    assert.deepEqual(runChatMessages(inputs), [{ role: 'system', text: 'Be kind.' }, { role: 'human', text: 'Hello' }]);
    assert.deepEqual(runChatMessages({ prompts: ['Complete this'] }), [{ role: 'human', text: 'Complete this' }]);
    assert.deepEqual(runChatMessages({ question: 'no messages' }), []);
  });

  it('writes a chat prompt file that parses back to the same messages, with the run’s model', () => {
    const file = promptFileFromRun({ messages: [{ role: 'system', content: 'S' }, { role: 'user', content: 'U' }] }, { name: 'gpt-4o-mini', settings: { temperature: 0.2 } });
    assert.ok(file);
    const text = writePromptFile(file);
    const parsed = parsePromptFile(text);
    assert.deepEqual(parsed.problems.filter((p) => p.severity === 'error'), []);
    assert.equal(parsed.file?.body.kind, 'chat');
    assert.match(text, /gpt-4o-mini/);
    assert.equal(promptFileFromRun({ nothing: true }), undefined);
  });
});
