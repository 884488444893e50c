/** The bundle's entry: defines <ccs-editor> (and its panels) when loaded. */
export { CcsEditor } from './ccs-editor';
// GenerationJob: the name hosts have imported it by.
export type { ContentWidget, GenerationJobView as GenerationJob } from '@catalogue/content/v3';
