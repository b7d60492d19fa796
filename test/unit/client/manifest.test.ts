import assert from 'node:assert/strict';
import { chatPromptManifest, promptVariables, readManifest, renderChatPrompt, writeManifest, type ChatPrompt } from '../../../src/client/templates';

const pt = (template: string, vars: string[], format = 'f-string', root = 'langchain_core') => ({
  lc: 1,
  type: 'constructor',
  id: [root, 'prompts', 'prompt', 'PromptTemplate'],
  kwargs: { input_variables: vars, template_format: format, template },
});

/** As written by the JS client (langchain_core ids). */
const jsChat = {
  lc: 1,
  type: 'constructor',
  id: ['langchain_core', 'prompts', 'chat', 'ChatPromptTemplate'],
  kwargs: {
    input_variables: ['role', 'question', 'history'],
    messages: [
      { lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'chat', 'SystemMessagePromptTemplate'], kwargs: { prompt: pt('You are {role}.', ['role']) } },
      { lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'chat', 'MessagesPlaceholder'], kwargs: { variable_name: 'history' } },
      { lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'chat', 'HumanMessagePromptTemplate'], kwargs: { prompt: pt('{question}', ['question']) } },
      { lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'chat', 'AIMessagePromptTemplate'], kwargs: { prompt: pt('Sure.', []) } },
    ],
  },
};

/** As written by Python (langchain ids, mustache, a top-level template_format, extra metadata). */
const pyChat = {
  lc: 1,
  type: 'constructor',
  id: ['langchain', 'prompts', 'chat', 'ChatPromptTemplate'],
  kwargs: {
    input_variables: ['user', 'items'],
    optional_variables: ['history'],
    partial_variables: { history: [] },
    metadata: { lc_hub_owner: '-', lc_hub_repo: 'x', lc_hub_commit_hash: 'abc' },
    template_format: 'mustache',
    messages: [
      { lc: 1, type: 'constructor', id: ['langchain', 'prompts', 'chat', 'SystemMessagePromptTemplate'], kwargs: { prompt: pt('Hi {{user.name}}', ['user'], 'mustache', 'langchain') } },
      { lc: 1, type: 'constructor', id: ['langchain', 'prompts', 'chat', 'MessagesPlaceholder'], kwargs: { variable_name: 'history', optional: true } },
      { lc: 1, type: 'constructor', id: ['langchain', 'prompts', 'chat', 'ChatMessagePromptTemplate'], kwargs: { role: 'critic', prompt: pt('{{#items}}- {{.}}\n{{/items}}', ['items'], 'mustache', 'langchain') } },
    ],
  },
  name: 'ChatPromptTemplate',
};

const stringPrompt = pt('Summarize {text} in {n} words', ['text', 'n']);

/** A model-bound playground manifest: prompt first, model last. */
const bound = {
  lc: 1,
  type: 'constructor',
  id: ['langchain', 'schema', 'runnable', 'RunnableSequence'],
  kwargs: {
    first: jsChat,
    last: { lc: 1, type: 'constructor', id: ['langchain', 'chat_models', 'openai', 'ChatOpenAI'], kwargs: { model: 'gpt-4o', temperature: 0.2, openai_api_key: { lc: 1, type: 'secret', id: ['OPENAI_API_KEY'] } } },
  },
  name: 'RunnableSequence',
};

describe('client templates: LangChain manifests', () => {
  for (const [name, manifest] of [
    ['JS chat prompt (langchain_core ids)', jsChat],
    ['Python chat prompt (langchain ids, mustache, top-level format)', pyChat],
    ['string PromptTemplate', stringPrompt],
    ['model-bound RunnableSequence', bound],
  ] as const) {
    it(`round-trips a ${name} losslessly`, () => {
      const model = readManifest(JSON.parse(JSON.stringify(manifest)));
      assert.deepEqual(writeManifest(model), manifest);
    });
  }

  it('reads roles, placeholders, formats and variables', () => {
    const m = readManifest(pyChat);
    const p = m.prompt as ChatPrompt;
    assert.equal(p.kind, 'chat');
    assert.equal(p.templateFormat, 'mustache');
    assert.deepEqual(
      p.messages.map((x) => (x.kind === 'placeholder' ? `placeholder:${x.variableName}:${x.optional}` : `${x.role}:${x.templateFormat}`)),
      ['system:mustache', 'placeholder:history:true', 'critic:mustache'],
    );
    assert.deepEqual(promptVariables(p), ['user', 'items']);
  });

  it('reads the model of a model-bound manifest and keeps it on write', () => {
    const m = readManifest(bound);
    assert.deepEqual((m.model as { kwargs: { model: string } }).kwargs.model, 'gpt-4o');
    const p = m.prompt as ChatPrompt;
    const first = p.messages[0]!;
    assert.equal(first.kind, 'message');
    if (first.kind === 'message') first.template = 'You are {role} and {mood}.';
    const out = writeManifest(m) as typeof bound;
    assert.deepEqual(out.kwargs.last, bound.kwargs.last);
    const sys = (out.kwargs.first.kwargs.messages[0] as { kwargs: { prompt: { kwargs: { template: string; input_variables: string[] } } } }).kwargs.prompt.kwargs;
    assert.equal(sys.template, 'You are {role} and {mood}.');
    assert.deepEqual(sys.input_variables, ['role', 'mood']);
    assert.deepEqual(out.kwargs.first.kwargs.input_variables, ['role', 'mood', 'history', 'question']);
  });

  it('changes only the edited message', () => {
    const m = readManifest(jsChat);
    const p = m.prompt as ChatPrompt;
    const human = p.messages[2]!;
    if (human.kind === 'message') human.template = '{question}!';
    const out = writeManifest(m) as typeof jsChat;
    assert.deepEqual(out.kwargs.messages[0], jsChat.kwargs.messages[0]);
    assert.deepEqual(out.kwargs.messages[1], jsChat.kwargs.messages[1]);
    assert.equal((out.kwargs.messages[2]!.kwargs as { prompt: { kwargs: { template: string } } }).prompt.kwargs.template, '{question}!');
  });

  it('builds new manifests with langchain_core ids and renders them', () => {
    const manifest = chatPromptManifest([
      { role: 'system', template: 'You are {role}.' },
      { placeholder: 'history', optional: true },
      { role: 'human', template: '{q}' },
    ]);
    assert.deepEqual(manifest.id, ['langchain_core', 'prompts', 'chat', 'ChatPromptTemplate']);
    assert.deepEqual(manifest.kwargs?.['input_variables'], ['role', 'q']);
    const model = readManifest(manifest);
    assert.deepEqual(writeManifest(model), manifest);
    const rendered = renderChatPrompt(model.prompt as ChatPrompt, { role: 'a poet', q: 'Why?', history: [{ role: 'ai', content: 'Hi' }] });
    assert.deepEqual(rendered, [
      { role: 'system', content: 'You are a poet.' },
      { role: 'ai', content: 'Hi' },
      { role: 'human', content: 'Why?' },
    ]);
  });

  it('refuses a manifest with an invalid template format', () => {
    const bad = { ...stringPrompt, kwargs: { ...stringPrompt.kwargs, template_format: 'jinja2' } };
    assert.throws(() => readManifest(bad), { message: 'Invalid template format. Got `jinja2`; should be one of f-string,mustache' });
  });

  it('refuses something that is not a LangChain object', () => {
    assert.throws(() => readManifest({ hello: 1 }), /not a LangChain serialized object/);
  });
});
