// The demo prompts: several commits each (chat and plain, f-string and mustache, one with its model), tags, an
// archived one; and another workspace's public and private prompts.
import type { Ctx, Tenant } from '../context';
import { createCommit, createTag, insertRepo, setLike, updateRepo } from '../store/prompts';

function chatManifest(system: string, human: string, format: 'f-string' | 'mustache', vars: string[]) {
  const msg = (cls: string, template: string) => ({
    lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'chat', cls],
    kwargs: {
      prompt: {
        lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'prompt', 'PromptTemplate'],
        kwargs: { template, template_format: format, input_variables: vars.filter((v) => template.includes(v)) },
      },
    },
  });
  return {
    lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'chat', 'ChatPromptTemplate'],
    kwargs: { input_variables: vars, messages: [msg('SystemMessagePromptTemplate', system), msg('HumanMessagePromptTemplate', human)] },
  };
}

function plainManifest(template: string, format: 'f-string' | 'mustache', vars: string[]) {
  return {
    lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'prompt', 'PromptTemplate'],
    kwargs: { template, template_format: format, input_variables: vars },
  };
}

function withModel(prompt: object, model: string, temperature: number) {
  return {
    lc: 1, type: 'constructor', id: ['langchain_core', 'runnables', 'RunnableSequence'],
    kwargs: { first: prompt, last: { lc: 1, type: 'constructor', id: ['langchain', 'chat_models', 'openai', 'ChatOpenAI'], kwargs: { model, temperature } } },
  };
}

/** The local workspace's prompts; answers demo-classifier, which the other workspace likes. */
export function seedPrompts(ctx: Ctx, local: Tenant) {
  // Prompts with several commits: chat and plain, f-string and mustache, one with a model
  const summarizer = insertRepo(ctx, local, { repo_handle: 'demo-summarizer', description: 'Summarizes support tickets.', tags: ['support', 'summarization'], is_public: false });
  createCommit(ctx, summarizer, chatManifest('You summarize support tickets.', 'Summarize: {ticket}', 'f-string', ['ticket']), null, 'first version');
  const c2 = createCommit(ctx, summarizer, chatManifest('You summarize support tickets in {max_words} words.', 'Summarize: {ticket}', 'f-string', ['max_words', 'ticket']), null, 'word limit');
  const c3 = createCommit(ctx, summarizer, chatManifest('You summarize support tickets in {max_words} words. Keep product names.', 'Ticket:\n{ticket}', 'f-string', ['max_words', 'ticket']), null, 'keep product names');
  // Environments as LangSmith teams use them: production a commit behind, staging on the latest.
  const tag = (repo: { repo_handle: string }, name: string, commitId: string) => createTag(ctx, local, local.handle, repo.repo_handle, name, commitId);
  tag(summarizer, 'production', c2.id);
  tag(summarizer, 'staging', c3.id);

  const classifier = insertRepo(ctx, local, { repo_handle: 'demo-classifier', description: 'Routes a ticket to a team.', tags: ['routing'], is_public: true });
  const k1 = createCommit(ctx, classifier, plainManifest('Classify this ticket into billing, tech or account: {{ticket.body}}', 'mustache', ['ticket']), null, null);
  tag(classifier, 'production', k1.id);
  createCommit(ctx, classifier, plainManifest('Classify into {{#teams}}{{.}}, {{/teams}}or other.\n\n{{ticket.body}}', 'mustache', ['teams', 'ticket']), null, null);

  const rag = insertRepo(ctx, local, { repo_handle: 'demo-rag-answer', description: 'Answers from retrieved context, with its model.', tags: ['rag'], is_public: true });
  createCommit(ctx, rag, withModel(chatManifest('Answer only from {{context}}.', '{{question}}', 'mustache', ['context', 'question']), 'gpt-4o-mini', 0), null, null);
  createCommit(ctx, rag, withModel(chatManifest('Answer only from {{context}}. Cite sources.', '{{question}}', 'mustache', ['context', 'question']), 'gpt-4o', 0.2), null, null);

  const old = insertRepo(ctx, local, { repo_handle: 'demo-old-greeting', description: 'Superseded.', tags: [], is_public: false });
  createCommit(ctx, old, plainManifest('Say hello to {name}.', 'f-string', ['name']), null, null);
  updateRepo(ctx, local, local.handle, old.repo_handle, { is_archived: true });
  return classifier;
}

/** The other workspace's prompts, one public and one private, and its like of the local demo-classifier. */
export function seedOtherWorkspace(ctx: Ctx, other: Tenant, local: Tenant, classifier: { repo_handle: string }): void {
  const pub = insertRepo(ctx, other, { repo_handle: 'translator', description: 'Translates text (another workspace, public).', tags: ['i18n'], is_public: true });
  createCommit(ctx, pub, chatManifest('Translate into {language}.', '{text}', 'f-string', ['language', 'text']), null, null);
  const priv = insertRepo(ctx, other, { repo_handle: 'internal-notes', description: 'Private to the other workspace.', tags: [], is_public: false });
  createCommit(ctx, priv, plainManifest('Internal: {x}', 'f-string', ['x']), null, null);
  setLike(ctx, other, local.handle, classifier.repo_handle, true);
}
