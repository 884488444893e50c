import { createBuiltinProvider } from './builtin';
import { createOpenAiProvider, type OpenAiProviderOptions } from './openai';
import type { ContentProvider } from './types';

export interface ProviderOptions {
  provider: 'builtin' | 'openai';
  /** Required when `provider` is `openai`. */
  openai?: OpenAiProviderOptions;
}

export function createProvider(options: ProviderOptions): ContentProvider {
  switch (options.provider) {
    case 'builtin':
      return createBuiltinProvider();
    case 'openai':
      if (options.openai === undefined)
        throw new Error('the openai provider needs its options (base URL, model)');
      return createOpenAiProvider(options.openai);
    default:
      throw new Error(`unknown content provider "${String(options.provider)}"`);
  }
}

export { createBuiltinProvider, parameterPairs, researchQuestions } from './builtin';
export { fitToStructure, fitValue, withParagraphLength } from './fit';
export { createOpenAiProvider, estimateTokens } from './openai';
export { createProviderLimiter, parseDuration, rateLimitResetMs, RateLimitWaitExceeded } from './limiter';
export type { Permit, ProviderLimiter, ProviderLimits } from './limiter';
export type { OpenAiProviderOptions } from './openai';
export { systemMessage, userMessage } from './openai-prompt';
export { answerSchema } from './openai-schema';
export { ProviderError } from './types';
export type {
  ContentProvider,
  GenerationContext,
  GenerationRequest,
  GenerationResult,
  ResearchExtract,
  ResearchSource,
  SkippedWidget,
  SkipReason,
  TokenUsage,
} from './types';
