import { css } from 'lit';

/** The marks on texts not the owner's own (marks.ts): a dashed outline and a badge after the text. */
export const markStyles = css`
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
