import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { operationsWithSuccess } from './openapi';

/**
 * The operations of the document that document a successful (2xx) answer none of `validated`
 * names: each operation's success response must be checked against its schema by some test.
 */
export function unvalidatedOperations(document: unknown, validated: Iterable<string>): string[] {
  const seen = new Set(validated);
  return operationsWithSuccess(document).filter((operation) => !seen.has(operation));
}

/** What the run's workers recorded in `dir` (openapi.ts, recordValidated). */
export function validatedOperations(dir: string): Set<string> {
  return new Set(
    readdirSync(dir).flatMap((file) => readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean)),
  );
}

/** What isWholeSuite() reads of jest's global config. */
export interface RunConfig {
  testPathPatterns: { patterns: readonly string[] };
  testNamePattern?: string;
  shard?: unknown;
  onlyChanged?: boolean;
  findRelatedTests?: boolean;
  onlyFailures?: boolean;
  lastCommit?: boolean;
  changedSince?: string;
}

/**
 * Whether the run is the whole suite (no path or name pattern, no shard, no related or changed
 * files only): only then must every operation have been validated.
 */
export function isWholeSuite(config: RunConfig): boolean {
  return (
    config.testPathPatterns.patterns.length === 0 &&
    !config.testNamePattern &&
    !config.shard &&
    !config.onlyChanged &&
    !config.findRelatedTests &&
    !config.onlyFailures &&
    !config.lastCommit &&
    !config.changedSince
  );
}
