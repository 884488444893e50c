/** The entry of its own small bundle: defines <ccs-batch-progress> when loaded. */
export { CcsBatchProgress, type BatchEventDetail, type BatchView } from './batch-progress';
