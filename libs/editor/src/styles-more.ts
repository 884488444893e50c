import { css } from 'lit';

/** The marks on texts not the owner's own (marks.ts): a dashed outline and a badge after the text. */
export const markStyles = css`
  /* A text refused as stale, kept to apply again. */
  .refused {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
    border: 1px solid var(--_border, #d1d5db);
    border-radius: var(--_radius, 6px);
    background: var(--_surface, #f3f4f6);
    padding: 0.5rem 0.75rem;
    margin: 0.5rem 0;
  }
  .refused p {
    flex: 1 1 20rem;
    margin: 0;
    overflow-wrap: anywhere;
  }
  .widget-body .ccs-marked {
    outline: 1px dashed #c2410c;
  }
  .widget-body .ccs-marked:not([contenteditable])::after {
    content: attr(data-ccs-note);
    margin-inline-start: 0.5em;
    background: #fff7ed;
    color: #7c2d12;
    font-size: 0.75rem;
  }
  /* A FAQ question's ::after is the content's chevron (absolute, 0.55em, rotated): the badge
     takes its place as plain inline text, else it is drawn diagonally past the page's edge. */
  .widget-body summary.ccs-marked:not([contenteditable])::after {
    position: static;
    width: auto;
    height: auto;
    margin-top: 0;
    border: 0;
    transform: none;
    transition: none;
  }
`;

/** The History panel's list of revisions (history-panel.ts). */
export const revisionStyles = css`
  ol.revisions {
    margin: 0 0 0.5rem;
    padding: 0;
    list-style: none;
    display: grid;
    gap: 0.25rem;
  }
  ol.revisions li {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    gap: 0.25rem 0.5rem;
    align-items: center;
    padding: 0.25rem 0;
    border-bottom: 1px solid var(--_border);
  }
  ol.revisions .badge {
    font-style: normal;
    font-size: 0.875em;
    padding: 0 0.375rem;
    border: 1px solid currentColor;
    border-radius: var(--_radius);
  }
  ol.revisions .badge.published {
    color: var(--ccs-published, #166534);
  }
  ol.revisions .badge.draft {
    color: var(--ccs-draft, #92400e);
  }
`;

/** The formatting toolbar of a rich text being edited (format-toolbar.ts), drawn inside the preview. */
export const formatStyles = css`
  .widget-body .ccs-format {
    margin: 0 0 0.25rem;
    font: 0.875rem/1.4 var(--_font);
    color: var(--_text);
  }
  .ccs-format-bar,
  .ccs-format-link {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem;
    align-items: center;
  }
  .ccs-format-link {
    margin-top: 0.25rem;
  }
  .ccs-format-link[hidden] {
    display: none;
  }
  .ccs-format-link input {
    min-width: 16rem;
  }
  .ccs-format button[aria-pressed='true'] {
    background: var(--_accent);
    color: var(--_accent-text);
    border-color: var(--_accent);
  }
  .ccs-format [data-format='bold'] {
    font-weight: 700;
  }
  .ccs-format [data-format='italic'] {
    font-style: italic;
  }
  .ccs-format-keys,
  .ccs-format-error {
    margin: 0.25rem 0 0;
    font-size: 0.75rem;
    color: var(--_muted);
  }
  .ccs-format-error {
    color: var(--_danger);
  }
  .ccs-format-error:empty {
    display: none;
  }
`;
