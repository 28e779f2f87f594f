import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { extractReasoningMiddleware, wrapLanguageModel, type EmbeddingModel, type LanguageModel } from 'ai';
import type { ModelProvider } from '../../../shared/contract';
import { embeddingFetch } from './embeddingFetch';
import { activityFetch } from './streamActivity';
import { streamingFetch } from './streamingFetch';

/** What a provider needs to build a model: never read from `process.env` behind our back. */
export interface ProviderConfig {
  provider: ModelProvider;
  baseURL: string;
  apiKey: string | undefined;
}

/**
 * The AI SDK chat model for `modelId`. OpenAI goes through its chat-completions model, not
 * the Responses API, so one `/v1/chat/completions` test server covers OpenAI and every
 * compatible server alike; compatible servers are asked for usage in the stream.
 */
export function createChatModel(
  { provider, baseURL, apiKey }: ProviderConfig,
  modelId: string,
): LanguageModel {
  switch (provider) {
    case 'openai':
      // `apiKey` is always given (checked by the caller), so the SDK never falls back to the env.
      return thinkingApart(
        createOpenAI({ baseURL, apiKey: apiKey ?? '', fetch: streamingFetch }).chat(modelId),
      );
    case 'anthropic':
      return createAnthropic({ baseURL, apiKey: apiKey ?? '', fetch: activityFetch })(modelId);
    case 'openai-compatible':
      return thinkingApart(
        createOpenAICompatible({
          name: 'openai-compatible',
          baseURL,
          apiKey,
          includeUsage: true,
          fetch: streamingFetch,
        }).chatModel(modelId),
      );
  }
}

/**
 * The model with `<think>…</think>` in its text read as reasoning, not answer: DeepSeek-R1, QwQ
 * and Qwen3 behind a server without a reasoning parser (vLLM, llama.cpp, older Ollama) send
 * their thinking so. It showed in chat answers, and a draft diff the model rejected while
 * thinking was proposed by repair beside its real one.
 */
const thinkingApart = (model: Parameters<typeof wrapLanguageModel>[0]['model']): LanguageModel =>
  wrapLanguageModel({ model, middleware: extractReasoningMiddleware({ tagName: 'think' }) });

/** The `/v1/embeddings` model, or null where the provider has none (Anthropic). */
export function createEmbeddingModel(
  { provider, baseURL, apiKey }: ProviderConfig,
  modelId: string,
): EmbeddingModel | null {
  switch (provider) {
    case 'openai':
      return createOpenAI({ baseURL, apiKey: apiKey ?? '', fetch: embeddingFetch }).embedding(modelId);
    case 'anthropic':
      return null;
    case 'openai-compatible':
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL,
        apiKey,
        fetch: embeddingFetch,
      }).embeddingModel(modelId);
  }
}

/** Headers for plain requests (`/v1/models`) in each provider's auth scheme. */
export function authHeaders({ provider, apiKey }: ProviderConfig): Record<string, string> {
  if (!apiKey) return {};
  if (provider === 'anthropic') return { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' };
  return { authorization: `Bearer ${apiKey}` };
}
