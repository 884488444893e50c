/**
 * The sanitiser, in one place. sanitize-html 2.17.7 depends on htmlparser2 12, which is ESM-only:
 * Node ≥ 22.12 requires it natively, and jest.config.js transpiles it for Jest.
 */
import sanitize from 'sanitize-html';
import type SanitizeHtml from 'sanitize-html';

export { sanitize };
export type { SanitizeHtml };

/**
 * Characters without which sanitize-html returns its input unchanged, whatever the policy: no
 * tag can start, no entity needs decoding and nothing needs escaping (a property test in
 * sanitize.test.ts checks this against sanitize-html itself).
 */
const NEEDS_PARSING = /[<>&"]/;

/** Texts longer than this are sanitised every time rather than kept. */
const MAX_MEMO_TEXT = 16_384;
/** Characters (inputs and results) kept per policy and generation. */
const GENERATION_BUDGET = 500_000;

/**
 * Two generations per policy: results go into `young`; when it is full it becomes `old` and the
 * previous `old` is dropped. A hit in `old` moves back into `young`, so texts in use survive,
 * and every operation stays O(1) (no eviction scans).
 */
interface Memo {
  young: Map<string, string>;
  old: Map<string, string>;
  size: number;
}

const memos = new WeakMap<SanitizeHtml.IOptions, Memo>();

function remember(memo: Memo, value: string, result: string): void {
  if (memo.size > GENERATION_BUDGET) {
    memo.old = memo.young;
    memo.young = new Map();
    memo.size = 0;
  }
  memo.young.set(value, result);
  memo.size += value.length + result.length;
}

/**
 * `sanitize(value, policy)` for the library's own fixed policies, parsing each text at most once
 * while it stays in a small per-policy memo. Rendering one entity parses the same texts many
 * times (composition, then every language, html and marketplace alike), and sanitising is a
 * pure function of (policy, text), so a remembered result is exactly what parsing would give.
 * Only for policies whose callbacks are pure: never for one that collects what it sees.
 */
export function sanitizeMemo(value: string, policy: SanitizeHtml.IOptions): string {
  if (!NEEDS_PARSING.test(value)) return value;
  if (value.length > MAX_MEMO_TEXT) return sanitize(value, policy);
  let memo = memos.get(policy);
  if (memo === undefined) {
    memo = { young: new Map(), old: new Map(), size: 0 };
    memos.set(policy, memo);
  }
  const recent = memo.young.get(value);
  if (recent !== undefined) return recent;
  const older = memo.old.get(value);
  const result = older ?? sanitize(value, policy);
  remember(memo, value, result);
  return result;
}
