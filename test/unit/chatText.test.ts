// A chat example's row reads as its last human message (src/text/chatText.ts): the message shapes LangSmith
// stores (OpenAI's {role, content}, LangChain's {type, content} and {type, data}, LangChain serialized {lc, id,
// kwargs}), content as a string or a list of parts, a list of lists; anything else is not a chat and keeps its
// preview. The demo's chat transcripts are read as the seed writes them.
import assert from 'node:assert/strict';
import { lastHumanMessage, lastMessage } from '../../src/text/chatText';

const system = { role: 'system', content: 'You are a helpful support agent.' };
const lc = (kind: string, content: unknown) => ({ lc: 1, type: 'constructor', id: ['langchain', 'schema', 'messages', kind], kwargs: { content, additional_kwargs: {} } });

describe('chat examples: the last human message', () => {
  it('reads OpenAI messages: the last user message, not the system prompt or the assistant', () => {
    const inputs = {
      messages: [system, { role: 'user', content: 'How do I reset my password?' }, { role: 'assistant', content: 'Settings → Security.' }, { role: 'user', content: 'And my 2FA?' }, { role: 'assistant', content: null, tool_calls: [] }],
    };
    assert.equal(lastHumanMessage(inputs), 'And my 2FA?');
  });

  it('reads LangChain message dicts: {type: human, content} and {type: human, data: {content}}', () => {
    assert.equal(lastHumanMessage({ messages: [{ type: 'system', content: 'Be brief.' }, { type: 'human', content: 'What is LangSmith?' }, { type: 'ai', content: 'A platform.' }] }), 'What is LangSmith?');
    assert.equal(lastHumanMessage({ input: [{ type: 'human', data: { content: 'From messages_to_dict', example: false } }, { type: 'ai', data: { content: 'ok' } }] }), 'From messages_to_dict');
  });

  it('reads LangChain serialized messages ({lc: 1, id: [..., HumanMessage], kwargs: {content}})', () => {
    const inputs = { messages: [lc('SystemMessage', 'Be brief.'), lc('HumanMessage', 'First question'), lc('AIMessage', 'An answer'), lc('HumanMessageChunk', 'Second question')] };
    assert.equal(lastHumanMessage(inputs), 'Second question');
  });

  it('reads content given as a list of parts: the text parts, images left out', () => {
    const inputs = {
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }, { type: 'text', text: 'Be precise.' }] },
      ],
    };
    assert.equal(lastHumanMessage(inputs), 'What is in this picture? Be precise.');
    assert.equal(lastHumanMessage({ messages: [lc('HumanMessage', ['plain part', { type: 'input_text', text: 'typed part' }])] }), 'plain part typed part');
  });

  it('skips a last human message with no text (an image alone) for the one before', () => {
    const inputs = { messages: [{ role: 'user', content: 'Describe the attached chart.' }, { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] }] };
    assert.equal(lastHumanMessage(inputs), 'Describe the attached chart.');
  });

  it('reads a list of lists (chat model runs) and a chat under another key', () => {
    assert.equal(lastHumanMessage({ messages: [[system, { role: 'human', content: 'Nested' }]] }), 'Nested');
    assert.equal(lastHumanMessage({ question_context: 'x', conversation: [system, { role: 'user', content: 'Under conversation' }] }), 'Under conversation');
    // `messages` wins over an earlier field holding a chat.
    assert.equal(lastHumanMessage({ history: [{ role: 'user', content: 'old' }], messages: [{ role: 'user', content: 'current' }] }), 'current');
    // A single message as the inputs, or in a field.
    assert.equal(lastHumanMessage({ role: 'user', content: 'Just one' }), 'Just one');
    assert.equal(lastHumanMessage({ input: { type: 'human', content: 'One in a field' } }), 'One in a field');
  });

  it('leaves alone what is not a chat: the row keeps its preview', () => {
    for (const inputs of [
      { question: 'How do I reset my password?' },
      { messages: 'not a list' },
      { messages: [] },
      { messages: [{ role: 'user', content: 'hi' }, { note: 'not a message' }] },
      { messages: [{ role: 'wizard', content: 'an unknown role' }] },
      { messages: [system] },
      { list: [1, 2, 3] },
      null,
      'text',
      [{ role: 'user', content: 'inputs are an object, not a list' }],
    ]) {
      assert.equal(lastHumanMessage(inputs), undefined, JSON.stringify(inputs));
    }
  });

  it('does not take inherited properties for fields', () => {
    const inputs = JSON.parse('{"__proto__": [{"role": "user", "content": "own key"}]}') as unknown;
    assert.equal(lastHumanMessage(inputs), 'own key');
    assert.equal(lastHumanMessage(Object.create({ messages: [{ role: 'user', content: 'inherited' }] })), undefined);
  });

  it('reads the demo chat transcripts as the seed writes them: the question, and the answer as text', () => {
    const inputs = { messages: [system, { role: 'user', content: 'How do I reset my password?' }] };
    const outputs = { output: { role: 'assistant', content: 'Use “Forgot password” on the sign-in page.' } };
    assert.equal(lastHumanMessage(inputs), 'How do I reset my password?');
    assert.equal(lastMessage(outputs), 'Use “Forgot password” on the sign-in page.');
    assert.equal(lastMessage({ answer: 'plain' }), undefined);
    assert.equal(lastMessage({ messages: [{ role: 'assistant', content: 'first' }, { type: 'ai', content: [{ type: 'text', text: 'last' }] }] }), 'last');
  });
});
