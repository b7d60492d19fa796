// `.prompty` files convert to prompt files: roles, mustache templates, inputs, name, description and model.
import assert from 'node:assert/strict';
import { fromManifest, parsePromptFile, promptyName, promptyToPromptFile, toManifest, writePromptFile, type PromptFile } from '../../src/promptFile';

/** An Azure OpenAI RAG prompt: inputs with types and samples, env references, a mustache section. */
const supportAgent = `---
name: Customer Support Agent
description: Answers a customer's question from the retrieved help articles.
authors:
  - Support Tools
tags:
  - support
  - rag
model:
  api: chat
  configuration:
    type: azure_openai
    azure_endpoint: \${env:AZURE_OPENAI_ENDPOINT}
    azure_deployment: gpt-4o-support
    api_version: 2024-06-01
  parameters:
    max_tokens: 800
    temperature: 0.2
inputs:
  customer:
    type: object
    sample:
      firstName: Dana
      plan: Pro
  question:
    type: string
    sample: How do I reset my router?
  articles:
    type: array
---
system:
You are a friendly support agent talking to {{customer.firstName}} ({{customer.plan}} plan).
Answer only from these articles:
{{#articles}}
- {{title}}: {{summary}}
{{/articles}}
If they do not cover the question, say you will open a ticket.

user:
{{question}}
`;

/** An OpenAI prompt with few-shot turns, capitalised role lines, a sample instead of inputs, Windows line ends. */
const haiku = [
  '---',
  'name: "Haiku Writer!"',
  'description: Writes a haiku about a topic.',
  'model:',
  '  api: chat',
  '  configuration:',
  '    type: openai',
  '    name: gpt-4o-mini',
  '  parameters:',
  '    temperature: 0.9',
  '    stop: ["\\n\\n\\n"]',
  'sample:',
  '  topic: autumn leaves',
  '---',
  'System:',
  'You write haiku: three lines, 5-7-5 syllables. Reply with the haiku only.',
  '',
  'User:',
  'Write a haiku about the sea.',
  '',
  'Assistant:',
  'Salt wind on the pier',
  'gulls argue over the nets',
  'the tide keeps its time',
  '',
  '# user:',
  'Write a haiku about {{ topic }}.',
  '',
].join('\r\n');

/** No name, no model: text before the first role line is the system message (as Prompty reads it). */
const noName = `---
description: Classifies a ticket.
inputs:
  ticket: The printer is on fire
---
Classify tickets as bug, question or feature request.

user:
Ticket: {{ticket}}
Category:
assistant:
`;

function readsBack(file: PromptFile): void {
  const text = writePromptFile(file, { header: true });
  const parsed = parsePromptFile(text);
  assert.deepEqual(parsed.problems.filter((p) => p.severity === 'error'), [], text);
  assert.deepEqual(parsed.file, file);
  // And it converts to a manifest and back with the same messages.
  assert.deepEqual(fromManifest(toManifest(file)).body, file.body);
}

describe('.prompty → prompt file', () => {
  it('converts an Azure OpenAI prompt: name, description, tags, inputs, roles, mustache, model', () => {
    const file = promptyToPromptFile(supportAgent, 'fallback');
    assert.equal(file.identifier, 'customer-support-agent');
    assert.equal(file.description, "Answers a customer's question from the retrieved help articles.");
    assert.deepEqual(file.tags, ['support', 'rag']);
    assert.equal(file.templateFormat, 'mustache');
    assert.deepEqual(file.inputVariables, ['customer', 'question', 'articles']);
    assert.equal(file.body.kind, 'chat');
    const messages = file.body.kind === 'chat' ? file.body.messages : [];
    assert.deepEqual(
      messages.map((m) => (m.kind === 'message' ? [m.role, m.chatRole, m.templateFormat] : [])),
      [
        ['system', false, 'mustache'],
        ['human', false, 'mustache'],
      ],
    );
    const system = messages[0]!.kind === 'message' ? messages[0]!.template : '';
    assert.equal(
      system,
      'You are a friendly support agent talking to {{customer.firstName}} ({{customer.plan}} plan).\nAnswer only from these articles:\n{{#articles}}\n- {{title}}: {{summary}}\n{{/articles}}\nIf they do not cover the question, say you will open a ticket.',
    );
    assert.equal(messages[1]!.kind === 'message' ? messages[1]!.template : '', '{{question}}');
    // The deployment is the model; the endpoint (an env reference) is not copied.
    assert.deepEqual(file.model, {
      id: ['langchain', 'chat_models', 'azure_openai', 'AzureChatOpenAI'],
      settings: { model: 'gpt-4o-support', azure_deployment: 'gpt-4o-support', max_tokens: 800, temperature: 0.2 },
    });
    readsBack(file);
    // No warnings either: the inputs are exactly the variables the templates use.
    const parsed = parsePromptFile(writePromptFile(file));
    assert.deepEqual(parsed.problems.filter((p) => p.severity !== 'info'), []);
  });

  it('converts an OpenAI few-shot prompt with capitalised roles, # role lines, a sample and CRLF line ends', () => {
    const file = promptyToPromptFile(haiku);
    assert.equal(file.identifier, 'haiku-writer');
    assert.deepEqual(file.inputVariables, ['topic']);
    const messages = file.body.kind === 'chat' ? file.body.messages : [];
    assert.deepEqual(
      messages.map((m) => (m.kind === 'message' ? [m.role, m.template] : [])),
      [
        ['system', 'You write haiku: three lines, 5-7-5 syllables. Reply with the haiku only.'],
        ['human', 'Write a haiku about the sea.'],
        ['ai', 'Salt wind on the pier\ngulls argue over the nets\nthe tide keeps its time'],
        ['human', 'Write a haiku about {{ topic }}.'],
      ],
    );
    assert.deepEqual(file.model, { id: ['langchain', 'chat_models', 'openai', 'ChatOpenAI'], settings: { model: 'gpt-4o-mini', temperature: 0.9, stop: ['\n\n\n'] } });
    readsBack(file);
    // The manifest binds the prompt to ChatOpenAI.
    const manifest = toManifest(file) as unknown as { id: string[]; kwargs: { last: { id: string[]; kwargs: Record<string, unknown> } } };
    assert.deepEqual(manifest.id, ['langchain_core', 'runnables', 'RunnableSequence']);
    assert.deepEqual(manifest.kwargs.last.id, ['langchain', 'chat_models', 'openai', 'ChatOpenAI']);
    assert.equal(manifest.kwargs.last.kwargs['model'], 'gpt-4o-mini');
  });

  it('uses the fallback name, reads leading text as the system message and keeps an empty last message', () => {
    const file = promptyToPromptFile(noName, 'Ticket Classifier (v2)');
    assert.equal(file.identifier, 'ticket-classifier-v2');
    assert.equal(file.description, 'Classifies a ticket.');
    assert.equal(file.model, undefined);
    assert.deepEqual(file.inputVariables, ['ticket']);
    const messages = file.body.kind === 'chat' ? file.body.messages : [];
    assert.deepEqual(
      messages.map((m) => (m.kind === 'message' ? [m.role, m.template] : [])),
      [
        ['system', 'Classify tickets as bug, question or feature request.'],
        ['human', 'Ticket: {{ticket}}\nCategory:'],
        ['ai', ''],
      ],
    );
    readsBack(file);
    // Without a usable name there is no identifier (the file can still be written and read).
    const anonymous = promptyToPromptFile(noName, '***');
    assert.equal(anonymous.identifier, undefined);
    readsBack(anonymous);
  });

  it('makes prompt names LangSmith accepts', () => {
    assert.equal(promptyName('Customer Support Agent'), 'customer-support-agent');
    assert.equal(promptyName('  Café   Menu/Helper v1.2 '), 'cafe-menuhelper-v1.2');
    assert.equal(promptyName('--_x'), 'x');
    assert.equal(promptyName('日本語'), '');
  });

  it('refuses what is not a .prompty file, with a clear error', () => {
    assert.throws(() => promptyToPromptFile('system:\nHello\n'), { message: /^Not a \.prompty file: no front matter between --- lines/ });
    assert.throws(() => promptyToPromptFile('---\nname: x\nsystem:\nHello\n'), { message: /^Not a \.prompty file: .*closing --- is missing/ });
    assert.throws(() => promptyToPromptFile('---\nname: x\n---\nJust some text without roles.\n'), { message: /^The \.prompty body has no messages/ });
    assert.throws(() => promptyToPromptFile('---\nname: [x\n---\nuser:\nhi\n'), { message: /^The \.prompty front matter is not valid YAML/ });
    assert.throws(() => promptyToPromptFile('---\n- a\n- b\n---\nuser:\nhi\n'), { message: /front matter must be a mapping/ });
    assert.throws(() => promptyToPromptFile('---\ninputs:\n  first name: {type: string}\n---\nuser:\n{{x}}\n'), { message: /input “first name” is not a variable name/ });
  });

  it('refuses Jinja2 that mustache cannot express instead of pushing it as text', () => {
    const withLoop = '---\nname: x\n---\nsystem:\n{% for d in docs %}{{d.title}}{% endfor %}\n';
    assert.throws(() => promptyToPromptFile(withLoop), { message: /message 1 \(system\) uses the Jinja2 statement “\{% for d in docs %\}”/ });
    const withFilter = '---\nname: x\n---\nuser:\n{{ question | upper }}\n';
    assert.throws(() => promptyToPromptFile(withFilter), { message: /message 1 \(human\) uses “\{\{ question \| upper \}\}”, a Jinja2 expression/ });
    const unclosed = '---\nname: x\n---\nuser:\n{{#items}}{{.}}\n';
    assert.throws(() => promptyToPromptFile(unclosed), { message: /is not a valid mustache template: Unclosed section "items"/ });
  });
});
