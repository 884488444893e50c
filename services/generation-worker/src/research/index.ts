export { addressProblem, classifyAddress } from '@catalogue/egress';
export { htmlBlocks, plainBlocks } from './extract';
export { fetchResearch } from './fetch-pages';
export type { ResearchOptions, ResearchPage, ResearchRefusal, ResearchResult } from './fetch-pages';
