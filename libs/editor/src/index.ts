/** The bundle's entry: defines <ccs-editor> (and its panels) when loaded. */
export { CcsEditor } from './ccs-editor';
export type { ContentWidget, GenerationJob } from './types';
