// Demo data for `--seed demo`: projects with nested runs (inputs, outputs, errors, latency, tokens),
// datasets with splits, versions and tags (one with JSON schemas and file attachments), prompts with several commits,
// an annotation queue, feedback.
// Written through the same functions the API uses, so it looks exactly like data a client made.
import { deflateSync } from 'node:zlib';
import type { Ctx, Tenant } from '../context';
import { ingestCreate, type AttachmentRef as RunAttachmentRef, type RunPayload } from '../store/runs';
import { insertDataset, tagVersion } from '../store/datasets';
import { storeBlobs } from '../store/examples';
import { writeRevision, type AttachmentRef, type RevRow } from '../store/revisions';
import { newVersion } from '../store/versions';
import { createConfig, createFeedback } from '../store/feedback';
import { createCommit, createTag, insertRepo, setLike, updateRepo } from '../store/prompts';
import { scopeOf, setItemStatus } from '../store/queueReview';
import { findItem } from '../store/queueRows';
import { createQueue } from '../store/queues';
import { sessionByName } from '../store/sessions';
import { seedExperiments } from './experiments';
import { newId } from '../ids';
import { jsonOrNull } from '../json';

/** A small deterministic PRNG, so every demo database looks the same. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    chance: (p: number) => next() < p,
  };
}

const QUESTIONS = [
  'How do I reset my password?', 'What is the refund policy for annual plans?', 'Can I export my data to CSV?',
  'Why was my card declined?', 'How do I invite a teammate?', 'Does the API support pagination?',
  'What regions do you host data in?', 'How do I rotate an API key?', 'Can I change my billing email?',
  'Is there an on-premise version?', 'How are rate limits calculated?', 'What does error 429 mean?',
  'How do I delete my account?', 'Can I use SSO with Okta?', 'Where can I find invoices?',
];
const ANSWERS = [
  'Go to Settings → Security and choose "Reset password".', 'Annual plans can be refunded within 30 days.',
  'Yes: open the dataset and choose Export → CSV.', 'The bank declined the charge; try another card or contact your bank.',
  'Open Members and click "Invite"; they get an email.', 'Yes, list endpoints take limit and offset.',
  'US and EU.', 'Create a new key, update your clients, then revoke the old one.', 'Billing → Contact lets you change it.',
  'Yes, a self-hosted edition is available on the Enterprise plan.', 'Per API key, per minute, with bursts allowed.',
  'Too many requests: back off and retry after the Retry-After header.', 'Settings → Account → Delete account.',
  'Yes, SAML SSO works with Okta.', 'Billing → Invoices lists every invoice as PDF.',
];
const ERRORS = [
  'RateLimitError: 429 Too Many Requests', 'TimeoutError: request took longer than 30s',
  'ValueError: could not parse model output as JSON', 'ConnectionError: upstream reset the connection',
];

function ts(base: number, offsetMs: number) {
  return new Date(base + offsetMs).toISOString();
}

function dotted(parent: string | null, startIso: string, id: string) {
  const seg = `${startIso.replace(/[-:]/g, '').replace(/\.(\d{3})Z$/, '$1000Z')}${id}`;
  return parent ? `${parent}.${seg}` : seg;
}

interface RunSpec {
  name: string;
  run_type: string;
  inputs: object;
  outputs?: object | null;
  error?: string | null;
  startOffset: number;
  duration: number;
  tokens?: [number, number];
  children?: RunSpec[];
  tags?: string[];
}

function writeTrace(ctx: Ctx, tenant: Tenant, sessionId: string, base: number, spec: RunSpec, parent?: { id: string; dotted: string; trace: string }): string {
  const id = newId();
  const start = ts(base, spec.startOffset);
  const d = dotted(parent?.dotted ?? null, start, id);
  const trace = parent?.trace ?? id;
  ingestCreate(ctx, tenant, {
    id, name: spec.name, run_type: spec.run_type, inputs: spec.inputs, outputs: spec.error ? null : spec.outputs ?? {},
    error: spec.error ?? null, start_time: start, end_time: ts(base, spec.startOffset + spec.duration), session_id: sessionId,
    parent_run_id: parent?.id ?? null, trace_id: trace, dotted_order: d, tags: spec.tags ?? [],
    extra: { metadata: { ls_provider: spec.run_type === 'llm' ? 'openai' : undefined, ls_model_name: spec.run_type === 'llm' ? 'gpt-4o-mini' : undefined } },
    prompt_tokens: spec.tokens?.[0], completion_tokens: spec.tokens?.[1], total_tokens: spec.tokens ? spec.tokens[0] + spec.tokens[1] : undefined,
  });
  for (const child of spec.children ?? []) writeTrace(ctx, tenant, sessionId, base, child, { id, dotted: d, trace });
  return id;
}

/** What the invoice extractor is given: the invoice's text, and the currency when the sender states one. */
export const INVOICE_INPUTS_SCHEMA = {
  title: 'InvoiceInput',
  type: 'object',
  properties: {
    invoice_text: { type: 'string', description: 'The invoice as plain text (e-mail body or OCR of the scan).' },
    currency: { type: 'string', enum: ['USD', 'EUR', 'GBP'], description: 'ISO 4217 code, when the sender states one.' },
  },
  required: ['invoice_text'],
  additionalProperties: false,
};
/** What it should extract. */
export const INVOICE_OUTPUTS_SCHEMA = {
  title: 'InvoiceFields',
  type: 'object',
  properties: {
    vendor: { type: 'string', description: 'Who sent the invoice.' },
    total: { type: 'number', minimum: 0, description: 'Amount due, taxes included.' },
    due_date: { type: 'string', format: 'date', description: 'When payment is due, if the invoice says.' },
  },
  required: ['total', 'vendor'],
  additionalProperties: false,
};

interface InvoiceSpec {
  inputs: { invoice_text: string; currency?: 'USD' | 'EUR' | 'GBP' };
  outputs: { vendor: string; total: number; due_date?: string };
  split: 'train' | 'test';
  files?: Record<string, { mime: string; data: Buffer }>;
}

const ACME_TEXT = [
  'ACME Hosting Inc.', 'Invoice INV-2024-0117', 'Date: 2024-03-01   Due: 2024-03-31', '',
  'Dedicated server (March)        1,100.00', 'Backup storage 500 GB             140.50', '',
  'Total due: USD 1,240.50',
].join('\n');

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
// zlib.crc32 is newer than the Node of the oldest VS Code we support.
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A small RGB PNG drawn by `pixel`; made here so the repository holds no binary files. */
export function demoPng(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const raw = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), y * (1 + width * 3) + 1 + x * 3); // each row starts with filter 0
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A one-page PDF showing `lines` (ASCII), with a correct cross-reference table so viewers open it without repair. */
export function demoPdf(lines: string[]): Buffer {
  const text = lines.map((l, i) => `${i ? '0 -16 Td ' : ''}(${l.replace(/[\\()]/g, (m) => `\\${m}`)}) Tj`).join('\n');
  const content = `BT /F1 11 Tf 24 250 Td\n${text}\nET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 320 280] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/**
 * The demo-invoices examples as first written (version `v1`). Files are generated, so every demo
 * database has the same bytes and a test can compare what the attachment URLs serve.
 */
export function demoInvoices(): InvoiceSpec[] {
  // A thumbnail of a receipt: paper, a dark header, grey text lines, a red total.
  const scan = demoPng(24, 32, (x, y) => {
    if (x < 2 || x > 21) return [214, 214, 210];
    if (y >= 2 && y < 6) return [40, 52, 72];
    if (y >= 26 && y < 28 && x >= 12 && x < 20) return [196, 40, 40];
    if (y >= 9 && y < 24 && y % 3 === 0 && x >= 4 && x < 4 + ((y * 7) % 13) + 4) return [150, 150, 150];
    return [252, 251, 246];
  });
  return [
    {
      inputs: { invoice_text: ACME_TEXT, currency: 'USD' },
      outputs: { vendor: 'ACME Hosting Inc.', total: 1240.5, due_date: '2024-03-31' },
      split: 'train',
      files: {
        'invoice.txt': { mime: 'text/plain', data: Buffer.from(`${ACME_TEXT}\n`, 'utf8') },
        'invoice.pdf': { mime: 'application/pdf', data: demoPdf(ACME_TEXT.split('\n').filter(Boolean)) },
      },
    },
    {
      inputs: { invoice_text: 'Bäckerei Müller GmbH\nRechnung Nr. 4471\n20 Brezeln, 12 Croissants\nGesamtbetrag: 86,40 EUR', currency: 'EUR' },
      outputs: { vendor: 'Bäckerei Müller GmbH', total: 86.4 },
      split: 'train',
      files: { 'receipt.png': { mime: 'image/png', data: scan } },
    },
    {
      // Written with the OCR's misreading of the total; the later version corrects it.
      inputs: { invoice_text: 'Northwind Traders Ltd\nInvoice 00913 — payable by 14 April 2024\nTea, assorted (40 boxes)\nTotal due: £321.00' },
      outputs: { vendor: 'Northwind Traders Ltd', total: 312 },
      split: 'test',
    },
    {
      inputs: { invoice_text: 'GLOBEX OFFICE SUPPLIES\nOrder #88-1203\nPrinter paper x3, toner x1\nAmount: $57.99', currency: 'USD' },
      outputs: { vendor: 'Globex Office Supplies', total: 57.99 },
      split: 'test',
    },
    {
      inputs: { invoice_text: 'Initech Consulting\nInvoice IC-332, due 2024-05-15\n32 h architecture review @ 150.00\nTotal: EUR 4,800.00', currency: 'EUR' },
      outputs: { vendor: 'Initech Consulting', total: 4800, due_date: '2024-05-15' },
      split: 'train',
    },
  ];
}

/** Stores attachment bytes like the multipart example endpoints do: content-addressed blobs, referenced by hash. */
function storeAttachments(ctx: Ctx, files: InvoiceSpec['files']): Record<string, AttachmentRef> | null {
  return files ? storeBlobs(ctx, files) : null;
}

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

export function seedDemo(ctx: Ctx): void {
  const r = rng(1984);
  const [local, other] = ctx.tenants;
  const now = Date.now();

  ctx.st.tx(() => {
    // Projects with nested runs
    const chatbot = sessionByName(ctx, local, 'demo-support-chatbot');
    ctx.st.run('UPDATE sessions SET description = ? WHERE id = ?', 'Customer-support assistant in production (demo data).', chatbot.id);
    const rootIds: string[] = [];
    for (let i = 0; i < 70; i++) {
      const base = now - (70 - i) * 37 * 60_000 - r.int(0, 60_000);
      const qi = r.int(0, QUESTIONS.length - 1);
      const failed = r.chance(0.08);
      const llmMs = r.int(400, 4200);
      const retrMs = r.int(30, 250);
      const pt = r.int(300, 1400);
      const ct = r.int(20, 300);
      rootIds.push(
        writeTrace(ctx, local, chatbot.id, base, {
          name: 'SupportPipeline', run_type: 'chain', inputs: { question: QUESTIONS[qi], user_id: `u-${r.int(100, 999)}` },
          outputs: { answer: ANSWERS[qi] }, error: failed ? r.pick(ERRORS) : null, startOffset: 0, duration: retrMs + llmMs + 40,
          tags: r.chance(0.3) ? ['beta'] : ['prod'],
          children: [
            { name: 'VectorStoreRetriever', run_type: 'retriever', inputs: { query: QUESTIONS[qi] }, outputs: { documents: [{ page_content: ANSWERS[qi], metadata: { source: `kb/${qi}.md` } }] }, startOffset: 5, duration: retrMs },
            {
              name: 'ChatOpenAI', run_type: 'llm', startOffset: retrMs + 10, duration: llmMs, tokens: [pt, ct],
              inputs: { messages: [{ role: 'system', content: 'Answer from the context.' }, { role: 'user', content: QUESTIONS[qi] }] },
              outputs: { generations: [{ text: ANSWERS[qi] }], llm_output: { token_usage: { prompt_tokens: pt, completion_tokens: ct, total_tokens: pt + ct } } },
              error: failed ? r.pick(ERRORS) : null,
            },
            { name: 'StrOutputParser', run_type: 'parser', inputs: { text: ANSWERS[qi] }, outputs: { output: ANSWERS[qi] }, startOffset: retrMs + llmMs + 15, duration: 3 },
          ],
        }),
      );
    }

    const agent = sessionByName(ctx, local, 'demo-research-agent');
    for (let i = 0; i < 30; i++) {
      const base = now - (30 - i) * 95 * 60_000;
      const topic = r.pick(['solar panels', 'sourdough', 'rust lifetimes', 'tide tables', 'bike gears']);
      writeTrace(ctx, local, agent.id, base, {
        name: 'AgentExecutor', run_type: 'chain', inputs: { input: `Summarize recent news about ${topic}` }, outputs: { output: `Here is a summary about ${topic}.` },
        startOffset: 0, duration: 9000,
        children: [
          { name: 'ChatOpenAI', run_type: 'llm', inputs: { prompt: `Plan research on ${topic}` }, outputs: { tool_call: { name: 'web_search', args: { q: topic } } }, startOffset: 10, duration: 1500, tokens: [220, 40] },
          {
            name: 'web_search', run_type: 'tool', inputs: { q: topic }, outputs: { results: [`${topic} result 1`, `${topic} result 2`] }, startOffset: 1520, duration: r.int(300, 3000),
            error: r.chance(0.1) ? 'HTTPError: 503 Service Unavailable' : null,
            children: [{ name: 'fetch_page', run_type: 'tool', inputs: { url: `https://example.com/${encodeURIComponent(topic)}` }, outputs: { status: 200 }, startOffset: 1530, duration: 200 }],
          },
          { name: 'ChatOpenAI', run_type: 'llm', inputs: { prompt: `Summarize results about ${topic}` }, outputs: { text: `Here is a summary about ${topic}.` }, startOffset: 4600, duration: 4000, tokens: [900, 180] },
        ],
      });
    }

    // Datasets with splits, versions and tags
    const qa = insertDataset(ctx, local, { name: 'demo-support-qa', description: 'Support questions with reference answers (demo data).', data_type: 'kv', extra: { metadata: { owner: 'support-team' } } });
    const v1 = newVersion(ctx, qa.id);
    const qaIds: string[] = [];
    QUESTIONS.forEach((q, i) => {
      const id = newId();
      qaIds.push(id);
      const split = i % 5 === 0 ? 'test' : i % 7 === 0 ? 'validation' : 'train';
      writeRevision(ctx, qa.id, id, v1, {
        inputs: { question: q }, outputs: { answer: ANSWERS[i] }, metadata: { dataset_split: [split], difficulty: r.pick(['easy', 'medium', 'hard']) },
        source_run_id: null, attachments: null, created_at: v1,
      });
    });
    tagVersion(ctx, local, qa.id, v1, 'v1');
    const v2 = newVersion(ctx, qa.id);
    for (const id of qaIds.slice(0, 3)) {
      const cur = ctx.st.one<RevRow>('SELECT * FROM example_revisions WHERE example_id = ? AND valid_to IS NULL', id)!;
      const outputs = jsonOrNull<{ answer: string }>(cur.outputs)!;
      writeRevision(ctx, qa.id, id, v2, { inputs: JSON.parse(cur.inputs), outputs: { answer: `${outputs.answer} (reviewed)` }, metadata: jsonOrNull(cur.metadata), source_run_id: null, attachments: null, created_at: cur.created_at });
    }
    const v3 = newVersion(ctx, qa.id);
    ctx.st.run('UPDATE example_revisions SET valid_to = ? WHERE example_id = ? AND valid_to IS NULL', v3, qaIds[14]);
    writeRevision(ctx, qa.id, newId(), v3, {
      inputs: { question: 'How do I enable two-factor authentication?' }, outputs: { answer: 'Settings → Security → Two-factor.' },
      metadata: { dataset_split: ['train'], difficulty: 'easy' }, source_run_id: null, attachments: null, created_at: v3,
    });
    tagVersion(ctx, local, qa.id, v3, 'prod');

    const chat = insertDataset(ctx, local, { name: 'demo-chat-transcripts', description: 'Multi-turn chats (demo data).', data_type: 'chat', extra: {} });
    const cv = newVersion(ctx, chat.id);
    for (let i = 0; i < 10; i++) {
      writeRevision(ctx, chat.id, newId(), cv, {
        inputs: { messages: [{ role: 'system', content: 'You are a helpful support agent.' }, { role: 'user', content: QUESTIONS[i] }] },
        outputs: { output: { role: 'assistant', content: ANSWERS[i] } }, metadata: { dataset_split: [i < 8 ? 'train' : 'test'] },
        source_run_id: null, attachments: null, created_at: cv,
      });
    }

    // A dataset with schemas and attachments, for the example editor
    const inv = insertDataset(ctx, local, {
      name: 'demo-invoices', description: 'Invoice extraction with a schema and attachments (demo data).', data_type: 'kv',
      inputs_schema_definition: INVOICE_INPUTS_SCHEMA, outputs_schema_definition: INVOICE_OUTPUTS_SCHEMA, extra: { metadata: { owner: 'finance-team' } },
    });
    const iv1 = newVersion(ctx, inv.id);
    const invIds = demoInvoices().map((spec) => {
      const id = newId();
      writeRevision(ctx, inv.id, id, iv1, {
        inputs: spec.inputs, outputs: spec.outputs, metadata: { dataset_split: [spec.split] }, source_run_id: null,
        attachments: storeAttachments(ctx, spec.files), created_at: iv1,
      });
      return id;
    });
    tagVersion(ctx, local, inv.id, iv1, 'v1');
    // Two versions only: the seed test reads every dataset with three or more as the QA dataset's history.
    const iv2 = newVersion(ctx, inv.id);
    const misread = ctx.st.one<RevRow>('SELECT * FROM example_revisions WHERE example_id = ? AND valid_to IS NULL', invIds[2])!;
    writeRevision(ctx, inv.id, invIds[2], iv2, {
      inputs: JSON.parse(misread.inputs), outputs: { ...jsonOrNull<Record<string, unknown>>(misread.outputs), total: 321, due_date: '2024-04-14' },
      metadata: { ...jsonOrNull<Record<string, unknown>>(misread.metadata), reviewed: true }, source_run_id: null, attachments: null, created_at: misread.created_at,
    });
    tagVersion(ctx, local, inv.id, iv2, 'latest-review');

    // Feedback configs the review rubric scores: one categorical, one continuous
    createConfig(ctx, local, 'correctness', { type: 'categorical', categories: [{ value: 0, label: 'incorrect' }, { value: 1, label: 'correct' }] }, false);
    createConfig(ctx, local, 'helpfulness', { type: 'continuous', min: 0, max: 1 }, false);

    // An experiment on the QA dataset, with feedback
    const exp = sessionByName(ctx, local, 'demo-qa-experiment-1');
    ctx.st.run('UPDATE sessions SET reference_dataset_id = ? WHERE id = ?', qa.id, exp.id);
    const feedback = (runId: string, key: string, score: number, comment: string | null, source = 'api') =>
      createFeedback(ctx, local, {
        run_id: runId, key, score, value: null, correction: null, comment, feedback_source: { type: source, metadata: {} }, feedback_config: null,
      });
    qaIds.forEach((exId, i) => {
      const base = now - 3 * 3600_000 + i * 20_000;
      const id = writeTrace(ctx, local, exp.id, base, {
        name: 'SupportPipeline', run_type: 'chain', inputs: { question: QUESTIONS[i] }, outputs: { answer: ANSWERS[(i + (r.chance(0.2) ? 1 : 0)) % ANSWERS.length] },
        startOffset: 0, duration: r.int(800, 3000),
        children: [{ name: 'ChatOpenAI', run_type: 'llm', inputs: { question: QUESTIONS[i] }, outputs: { text: ANSWERS[i] }, startOffset: 5, duration: 700, tokens: [400, 60] }],
      });
      ctx.st.run('UPDATE runs SET reference_example_id = ? WHERE id = ?', exId, id);
      feedback(id, 'correctness', r.chance(0.8) ? 1 : 0, null, 'model');
    });
    // Two experiments of the support-answer prompt (v2 better on some examples, worse on others)
    seedExperiments(ctx, local, qa.id, now);
    rootIds.forEach((id, i) => {
      if (i % 2 === 0) feedback(id, 'user_score', r.chance(0.75) ? 1 : 0, r.chance(0.2) ? 'Helpful, thanks!' : null);
    });

    // Annotation queue: five root runs of the chatbot project, a rubric over the two configs, the QA dataset
    // as the place corrected answers go; user "you" has done the first item (it is archived: one reviewer wanted).
    const review = createQueue(
      ctx, local, newId(),
      {
        name: 'demo-review', description: 'Answers users rated poorly (demo data).',
        rubric_instructions: 'Is the answer correct and grounded in the retrieved documents?',
        rubric_items: [
          {
            feedback_key: 'correctness', description: 'Is the answer factually correct and supported by the retrieved documents?',
            value_descriptions: { incorrect: 'Wrong, or not supported by the documents', correct: 'Right and grounded in the documents' },
            score_descriptions: { '0': 'incorrect', '1': 'correct' }, is_required: true, is_assertion: null,
          },
          {
            feedback_key: 'helpfulness', description: 'How far does the answer resolve what the user asked?',
            value_descriptions: null, score_descriptions: { '0': 'Does not help', '0.5': 'Partly answers the question', '1': 'Fully resolves it' },
            is_required: false, is_assertion: null,
          },
        ],
        default_dataset: qa.id,
      },
      rootIds.slice(0, 5),
    );
    const you = ctx.users.find((u) => u.tenant === local && u.name === 'you') ?? ctx.users.find((u) => u.tenant === local);
    if (you) {
      const done = findItem(ctx, you.id, review.id, rootIds[0]!, true)!;
      setItemStatus(ctx, scopeOf(ctx, review, you), done, 'completed', null);
    }

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

    seedTraceViewerDemo(ctx, local, now);

    if (other) {
      const pub = insertRepo(ctx, other, { repo_handle: 'translator', description: 'Translates text (another workspace, public).', tags: ['i18n'], is_public: true });
      createCommit(ctx, pub, chatManifest('Translate into {language}.', '{text}', 'f-string', ['language', 'text']), null, null);
      const priv = insertRepo(ctx, other, { repo_handle: 'internal-notes', description: 'Private to the other workspace.', tags: [], is_public: false });
      createCommit(ctx, priv, plainManifest('Internal: {x}', 'f-string', ['x']), null, null);
      setLike(ctx, other, local.handle, classifier.repo_handle, true);
    }
  });
}

// ---- the trace viewer's demo: an agent trace, a three-turn thread, a trace of 3,000 runs ----------------------

/** The thread of the demo-assistant project (three turns sharing metadata.thread_id). */
export const DEMO_THREAD_ID = 'demo-thread-paris-trip';
/** How many runs the one trace of demo-large-trace has. */
export const LARGE_TRACE_RUNS = 3000;
/** The image attached to the agent trace's chart run. */
export const DEMO_CHART_NAME = 'forecast.png';

/** A 48×32 bar chart of four days' temperatures: made here, so every demo database has the same bytes. */
export function demoChartPng(): Buffer {
  const bars = [14, 11, 17, 20];
  return demoPng(48, 32, (x, y) => {
    const bar = Math.floor(x / 12);
    const inBar = x % 12 >= 2 && x % 12 < 10;
    if (inBar && 31 - y < bars[bar] * 1.4) return bar === 1 ? [70, 110, 200] : [230, 140, 40];
    return y === 31 ? [60, 60, 60] : [250, 250, 250];
  });
}

/** One run written for the demo: ids, times, trace and dotted order given, so nothing is looked up. */
interface DemoRun {
  id: string;
  dotted: string;
  trace: string;
}

function demoRun(
  ctx: Ctx, tenant: Tenant, sessionId: string, parent: DemoRun | null, startMs: number, endMs: number,
  p: Omit<RunPayload, 'id' | 'start_time' | 'end_time' | 'trace_id' | 'parent_run_id' | 'dotted_order' | 'session_id'>,
  attachments?: Record<string, RunAttachmentRef>,
): DemoRun {
  const id = newId();
  const start = new Date(startMs).toISOString();
  const run = { id, dotted: dotted(parent?.dotted ?? null, start, id), trace: parent?.trace ?? id };
  ingestCreate(ctx, tenant, {
    ...p, id, start_time: start, end_time: new Date(endMs).toISOString(), session_id: sessionId,
    trace_id: run.trace, parent_run_id: parent?.id ?? null, dotted_order: run.dotted,
  }, attachments);
  return run;
}

/** An llm run's usage as LangSmith takes it (tokens and the costs the integration reports), in its metadata. */
function usage(model: string, input: number, output: number, extraMetadata: Record<string, unknown> = {}) {
  // gpt-4o-mini list prices per token: $0.15 / 1M input, $0.60 / 1M output.
  const inputCost = Math.round(input * 0.15) / 1e6;
  const outputCost = Math.round(output * 0.6) / 1e6;
  return {
    prompt_tokens: input, completion_tokens: output, total_tokens: input + output,
    extra: {
      invocation_params: { model, temperature: 0.2 },
      metadata: {
        ...extraMetadata, ls_provider: 'openai', ls_model_name: model,
        usage_metadata: { input_tokens: input, output_tokens: output, total_tokens: input + output, input_cost: inputCost, output_cost: outputCost, total_cost: inputCost + outputCost },
      },
    },
  };
}

const PYTHON_STACK = [
  'Traceback (most recent call last):',
  '  File "/app/agent/tools/events.py", line 42, in get_events',
  '    resp = session.get(f"{EVENTS_API}/search", params={"city": city, "date": date}, timeout=5)',
  '  File "/usr/local/lib/python3.12/site-packages/requests/sessions.py", line 602, in get',
  '    return self.request("GET", url, **kwargs)',
  '  File "/usr/local/lib/python3.12/site-packages/requests/adapters.py", line 700, in send',
  '    raise ConnectionError(e, request=request)',
  "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='events.example.com', port=443): Max retries exceeded with url: /search?city=Paris (Caused by NewConnectionError('Failed to establish a new connection: [Errno 111] Connection refused'))",
].join('\n');

/** The demo-assistant project: an agent trace with chat messages, tools, a retriever, an error and an image; a thread. */
function seedAssistant(ctx: Ctx, tenant: Tenant, now: number): void {
  const project = sessionByName(ctx, tenant, 'demo-assistant');
  ctx.st.run('UPDATE sessions SET description = ? WHERE id = ?', 'A travel assistant: an agent trace with tools and a three-turn conversation (demo data).', project.id);
  const w = (parent: DemoRun | null, start: number, end: number, p: Parameters<typeof demoRun>[6], att?: Record<string, RunAttachmentRef>) =>
    demoRun(ctx, tenant, project.id, parent, start, end, p, att);

  // The agent: plan with a tool call, call the tools (one fails), retrieve packing advice, draw a chart, answer.
  const t0 = now - 2 * 3600_000;
  const question = "I'm going to Paris this weekend. What will the weather be like, and what should I pack?";
  const system = { role: 'system', content: 'You are a travel assistant. Use the tools for facts; answer briefly.' };
  const user = { role: 'user', content: question };
  const toolCall = { id: 'call_weather_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
  const eventsCall = { id: 'call_events_1', type: 'function', function: { name: 'get_events', arguments: '{"city":"Paris","date":"this weekend"}' } };
  const weather = { city: 'Paris', forecast: [{ day: 'Sat', high_c: 14, conditions: 'light rain' }, { day: 'Sun', high_c: 11, conditions: 'showers' }] };
  const answer = 'Expect 11–14 °C with showers on both days. Pack a waterproof jacket, an umbrella, layers and shoes that cope with rain. I could not look up events: the events service did not answer.';
  const docs = [
    { page_content: 'For 10–15 °C and rain: a waterproof shell, a warm mid-layer, quick-drying trousers, waterproof shoes.', metadata: { source: 'guides/packing/rain.md' } },
    { page_content: 'Paris in spring: mornings are cool; museums are busiest on weekends; carry a compact umbrella.', metadata: { source: 'guides/cities/paris.md' } },
  ];
  const root = w(null, t0, t0 + 9_400, {
    name: 'TravelAgent', run_type: 'chain', inputs: { messages: [user] }, outputs: { messages: [user, { role: 'assistant', content: answer }] },
    error: 'ToolException: get_events failed: ConnectionError (see the get_events run)', tags: ['agent', 'demo'],
    extra: { metadata: { user_id: 'u-2207', app_version: '1.4.0' } },
  });
  w(root, t0 + 20, t0 + 1_820, {
    name: 'ChatOpenAI', run_type: 'llm', inputs: { messages: [system, user] },
    outputs: { choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [toolCall, eventsCall] } }] },
    ...usage('gpt-4o-mini', 412, 58),
  });
  w(root, t0 + 1_830, t0 + 2_310, { name: 'get_weather', run_type: 'tool', inputs: { city: 'Paris' }, outputs: weather, extra: { metadata: { tool_call_id: 'call_weather_1' } } });
  w(root, t0 + 1_835, t0 + 6_900, {
    name: 'get_events', run_type: 'tool', inputs: { city: 'Paris', date: 'this weekend' }, outputs: null,
    error: `ConnectionError: could not reach the events service\n\n${PYTHON_STACK}`, extra: { metadata: { tool_call_id: 'call_events_1', retries: 3 } },
  });
  w(root, t0 + 6_910, t0 + 7_150, { name: 'PackingGuideRetriever', run_type: 'retriever', inputs: { query: 'what to pack for 11-14 C and rain in Paris' }, outputs: { documents: docs } });
  const chart = storeBlobs(ctx, { [DEMO_CHART_NAME]: { mime: 'image/png', data: demoChartPng() } });
  w(root, t0 + 7_160, t0 + 7_420, {
    name: 'render_forecast_chart', run_type: 'tool', inputs: { forecast: weather.forecast }, outputs: { image: `attachment:${DEMO_CHART_NAME}`, width: 48, height: 32 },
  }, chart);
  const toolMessages = [
    { role: 'tool', tool_call_id: 'call_weather_1', content: JSON.stringify(weather) },
    { role: 'tool', tool_call_id: 'call_events_1', content: 'Error: ConnectionError: could not reach the events service' },
  ];
  const answerStart = t0 + 7_430;
  w(root, answerStart, t0 + 9_380, {
    name: 'ChatOpenAI', run_type: 'llm',
    inputs: { messages: [system, user, { role: 'assistant', content: null, tool_calls: [toolCall, eventsCall] }, ...toolMessages, { role: 'system', content: `Context:\n${docs.map((d) => d.page_content).join('\n')}` }] },
    outputs: { generations: [[{ text: answer, type: 'ChatGeneration', generation_info: { finish_reason: 'stop' }, message: { role: 'assistant', content: answer } }]] },
    events: [{ name: 'start', time: new Date(answerStart).toISOString() }, { name: 'new_token', time: new Date(answerStart + 640).toISOString(), kwargs: { token: 'Expect' } }, { name: 'end', time: new Date(t0 + 9_380).toISOString() }],
    ...usage('gpt-4o-mini', 986, 71),
  });

  // The conversation: three turns a minute apart, each a question and its answer as chat messages.
  const turns = [
    ['Hi! Is Paris worth visiting in March?', 'Yes: fewer crowds, cool weather (8–14 °C) and the first spring blossoms.'],
    ['Which museums should I book ahead?', 'Book the Louvre and the Musée d’Orsay online; the Orangerie is usually fine on the day.'],
    ['And a good area to stay?', 'Le Marais or Saint-Germain: central, walkable and close to the metro.'],
  ];
  const threadStart = now - 40 * 60_000;
  turns.forEach(([q, a], k) => {
    const start = threadStart + k * 60_000;
    const metadata = { thread_id: DEMO_THREAD_ID, user_id: 'u-2207' };
    const history = turns.slice(0, k).flatMap(([pq, pa]) => [{ role: 'user', content: pq }, { role: 'assistant', content: pa }]);
    const turn = w(null, start, start + 2_100 + k * 300, {
      name: 'ChatTurn', run_type: 'chain', inputs: { messages: [{ role: 'user', content: q }] }, outputs: { messages: [{ role: 'assistant', content: a }] },
      extra: { metadata }, tags: ['chat'],
    });
    const tokensIn = 180 + k * 60;
    w(turn, start + 15, start + 2_050 + k * 300, {
      name: 'ChatOpenAI', run_type: 'llm', inputs: { messages: [system, ...history, { role: 'user', content: q }] },
      outputs: { choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: a } }] },
      ...usage('gpt-4o-mini', tokensIn, 40 + k * 5, metadata),
    });
  });
}

/**
 * The demo-large-trace project: one trace of exactly LARGE_TRACE_RUNS runs — a root chain over sections, each a
 * chain of steps (retrievers, llm calls with nested tool calls, parsers) several levels deep, run one after another.
 */
function seedLargeTrace(ctx: Ctx, tenant: Tenant, now: number): void {
  const r = rng(3000);
  const project = sessionByName(ctx, tenant, 'demo-large-trace');
  ctx.st.run('UPDATE sessions SET description = ? WHERE id = ?', `One trace of ${LARGE_TRACE_RUNS} runs, for the trace viewer (demo data).`, project.id);
  let budget = LARGE_TRACE_RUNS - 1;
  let clock = now - 3 * 3600_000;
  const rootStart = clock;
  const root = { id: newId(), dotted: '', trace: '' };
  root.dotted = dotted(null, new Date(rootStart).toISOString(), root.id);
  root.trace = root.id;
  /** A run whose children `body` writes; the run itself is written after them, when its end is known. */
  const node = (parent: DemoRun, name: string, runType: string, inputs: object, body?: (self: DemoRun) => object | void): void => {
    budget--;
    const id = newId();
    const start = (clock += r.int(1, 4));
    const self = { id, dotted: dotted(parent.dotted, new Date(start).toISOString(), id), trace: parent.trace };
    const outputs = body?.(self) ?? { ok: true };
    clock += r.int(2, runType === 'llm' ? 40 : 12);
    const llm = runType === 'llm' ? usage('gpt-4o-mini', r.int(200, 1500), r.int(10, 200)) : {};
    ingestCreate(ctx, tenant, {
      id, name, run_type: runType, inputs, outputs, start_time: new Date(start).toISOString(), end_time: new Date(clock).toISOString(),
      session_id: project.id, trace_id: self.trace, parent_run_id: parent.id, dotted_order: self.dotted, ...llm,
    });
  };
  for (let s = 0; budget > 0; s++) {
    node(root, `section_${s}`, 'chain', { section: s }, (section) => {
      if (budget > 0) node(section, 'retrieve_context', 'retriever', { query: `section ${s}` }, () => ({ documents: [{ page_content: `Context for section ${s}.`, metadata: { source: `docs/${s}.md` } }] }));
      for (let step = 0; step < 5 && budget > 0; step++) {
        node(section, `step_${s}_${step}`, 'chain', { step }, (stepRun) => {
          if (budget > 0) {
            node(stepRun, 'ChatOpenAI', 'llm', { messages: [{ role: 'user', content: `Work on step ${step} of section ${s}.` }] }, (llm) => {
              // Some llm calls make tool calls, written as the llm's children (three and four levels down).
              const calls = r.chance(0.5) ? r.int(1, 2) : 0;
              for (let c = 0; c < calls && budget > 0; c++) {
                node(llm, 'lookup', 'tool', { key: `${s}.${step}.${c}` }, (tool) => {
                  if (budget > 0 && r.chance(0.3)) node(tool, 'http_get', 'tool', { url: `https://api.example.com/${s}/${step}/${c}` });
                  return { value: r.int(0, 1000) };
                });
              }
              return { choices: [{ message: { role: 'assistant', content: `Done with step ${step}.` } }] };
            });
          }
          if (budget > 0) node(stepRun, 'OutputParser', 'parser', { text: `Done with step ${step}.` }, () => ({ output: `step ${step} ok` }));
          return { done: true };
        });
      }
      return { section: s, done: true };
    });
  }
  ingestCreate(ctx, tenant, {
    id: root.id, name: 'BatchPipeline', run_type: 'chain', inputs: { documents: 'all' }, outputs: { processed: true },
    start_time: new Date(rootStart).toISOString(), end_time: new Date(clock + 5).toISOString(), session_id: project.id,
    trace_id: root.id, parent_run_id: null, dotted_order: root.dotted, tags: ['large'],
  });
}

/** The projects the trace viewer is shown with (new projects: the older demo projects stay as they were). */
function seedTraceViewerDemo(ctx: Ctx, tenant: Tenant, now: number): void {
  seedAssistant(ctx, tenant, now);
  seedLargeTrace(ctx, tenant, now);
}
