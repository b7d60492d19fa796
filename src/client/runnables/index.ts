export { DEFAULT_RECURSION_LIMIT, RecursionLimitError, Runnable, RunnableLambda, RunnableSequence, concatChunks, type RunContext, type RunnableConfig, type StepEnd } from './runnable';
export { AIMessage, ChatPromptValue, StringPromptValue, toMessages, type Message, type ModelInput, type PromptValue, type Role, type Usage } from './messages';
export { PromptTemplate, type FollowUpKeys, type PromptTemplateOptions } from './prompt';
export { StringOutputParser } from './parser';
export { InMemoryHistoryStore, InMemoryMessageHistory, RunnableWithMessageHistory, type MessageHistory, type WithHistoryOptions } from './history';
export { OpenAIChatModel, wireRole, type OpenAIChatOptions } from '../chat/openaiChat';
