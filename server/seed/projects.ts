// The demo's tracing projects: a support chatbot's pipeline runs and a research agent's runs, nested, with errors.
import type { Ctx, Tenant } from '../context';
import { sessionByName } from '../store/sessions';
import type { Rng } from './random';
import { ANSWERS, ERRORS, QUESTIONS } from './support';
import { writeTrace } from './traces';

/** The chatbot's and the agent's runs; answers the chatbot's root runs, oldest first. */
export function seedProjects(ctx: Ctx, local: Tenant, r: Rng, now: number): string[] {
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
  return rootIds;
}
