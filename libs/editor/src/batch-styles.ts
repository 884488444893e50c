import { css } from 'lit';

/**
 * `<ccs-batch-progress>`'s look: the editor's custom properties (`--ccs-accent`, `--ccs-text`,
 * `--ccs-border`, …, see styles.ts) theme it too. Usable from 320 px wide; focus always visible.
 */
export const batchStyles = css`
  :host {
    --_accent: var(--ccs-accent, #1d4ed8);
    --_accent-text: var(--ccs-accent-text, #ffffff);
    --_text: var(--ccs-text, #111827);
    --_muted: var(--ccs-muted, #4b5563);
    --_bg: var(--ccs-bg, #ffffff);
    --_surface: var(--ccs-surface, #f3f4f6);
    --_border: var(--ccs-border, #d1d5db);
    --_danger: var(--ccs-danger, #b91c1c);
    --_ok: var(--ccs-ok, #15803d);
    --_radius: var(--ccs-radius, 6px);
    display: block;
    min-width: 0;
    font-family: var(--ccs-font, system-ui, sans-serif);
    color: var(--_text);
    background: var(--_bg);
  }
  * {
    box-sizing: border-box;
  }
  :focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }
  header {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
    justify-content: space-between;
    margin-bottom: 0.75rem;
  }
  h2 {
    font-size: 1.125rem;
    margin: 0;
  }
  h3 {
    font-size: 0.95rem;
    margin: 0 0 0.4rem;
  }
  .badge {
    border-radius: 999px;
    padding: 0.1rem 0.65rem;
    font-size: 0.875rem;
    font-weight: 600;
    background: var(--_surface);
    border: 1px solid var(--_border);
  }
  .badge.running {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_accent-text);
  }
  .badge.finished {
    color: var(--_ok);
    border-color: var(--_ok);
  }
  .badge.cancelled {
    color: var(--_danger);
    border-color: var(--_danger);
  }
  .bar {
    height: 0.9rem;
    border-radius: 999px;
    background: var(--_surface);
    border: 1px solid var(--_border);
    overflow: hidden;
  }
  .fill {
    height: 100%;
    background: var(--_accent);
    transition: width 0.3s ease-out;
  }
  .fill.paused,
  .fill.cancelled {
    background: var(--_muted);
  }
  .fill.finished {
    background: var(--_ok);
  }
  @media (prefers-reduced-motion: reduce) {
    .fill {
      transition: none;
    }
  }
  .progress-text {
    margin: 0.4rem 0 0.75rem;
    font-variant-numeric: tabular-nums;
  }
  .figures {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 15rem), 1fr));
    gap: 0.75rem 1.5rem;
  }
  dl {
    margin: 0;
    display: grid;
    gap: 0.15rem;
  }
  dl > div {
    display: flex;
    justify-content: space-between;
    gap: 1rem;
    border-bottom: 1px solid var(--_surface);
    padding: 0.15rem 0;
  }
  dt {
    color: var(--_muted);
  }
  dd {
    margin: 0;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
  }
  .ok dd {
    color: var(--_ok);
  }
  .bad dd {
    color: var(--_danger);
  }
  .errors ul {
    margin: 0;
    padding: 0;
    list-style: none;
    display: grid;
    gap: 0.35rem;
  }
  .errors {
    margin-top: 0.75rem;
  }
  .errors li {
    border-left: 3px solid var(--_danger);
    padding: 0.15rem 0.5rem;
    overflow-wrap: anywhere;
  }
  .errors .code {
    color: var(--_muted);
    font-size: 0.8rem;
  }
  .errors .items {
    display: flex;
    flex-wrap: wrap;
    gap: 0.15rem 0.6rem;
    margin-top: 0.15rem;
  }
  .item {
    font-weight: 600;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    margin-top: 0.75rem;
  }
  button {
    font: inherit;
    color: inherit;
    min-height: 2.75rem;
    padding: 0.25rem 0.9rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_bg);
    cursor: pointer;
  }
  button.primary {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_accent-text);
  }
  button.danger {
    color: var(--_danger);
    border-color: var(--_danger);
  }
  button.danger-fill {
    background: var(--_danger);
    border-color: var(--_danger);
    color: #ffffff;
  }
  button[aria-disabled='true'] {
    opacity: 0.55;
    cursor: progress;
  }
  .confirm {
    margin-top: 0.75rem;
    padding: 0.75rem;
    border: 1px solid var(--_danger);
    border-radius: var(--_radius);
    background: var(--_surface);
  }
  .confirm p {
    margin: 0;
  }
  .said:focus {
    outline: none;
  }
  .said:focus-visible {
    outline: 3px solid var(--_accent);
  }
  .status {
    min-height: 1.5rem;
    color: var(--_muted);
    margin: 0.5rem 0 0;
  }
  .status:empty {
    min-height: 0;
  }
  .error {
    color: var(--_danger);
    border: 1px solid var(--_danger);
    border-radius: var(--_radius);
    padding: 0.5rem 0.75rem;
    margin: 0.5rem 0 0;
  }
  .hint {
    color: var(--_muted);
    font-size: 0.875rem;
    margin: 0.5rem 0 0;
  }
`;
