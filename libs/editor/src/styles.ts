import { css } from 'lit';

/**
 * The editor's chrome is themable through custom properties (set them on `ccs-editor` or any
 * ancestor) and `::part()`s; the content preview is not: it shows the content stylesheet's own
 * theme, which a host sets on `ccs-editor::part(preview)` (see libs/editor/README.md). Usable
 * from 360 px wide. Focus is always visible. A reload (refresh, another language, a finished
 * generation) keeps the widgets on screen until the new ones replace them, so the host page
 * does not jump.
 */
export const editorStyles = css`
  :host {
    --_accent: var(--ccs-accent, #1d4ed8);
    --_accent-text: var(--ccs-accent-text, #ffffff);
    --_text: var(--ccs-text, #111827);
    --_muted: var(--ccs-muted, #4b5563);
    --_bg: var(--ccs-bg, #ffffff);
    --_surface: var(--ccs-surface, #f3f4f6);
    --_border: var(--ccs-border, #d1d5db);
    --_danger: var(--ccs-danger, #b91c1c);
    --_radius: var(--ccs-radius, 6px);
    display: block;
    min-width: 0;
    font-family: var(--ccs-font, system-ui, sans-serif);
    color: var(--_text);
    background: var(--_bg);
    container-type: inline-size;
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
  .toolbar {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  button,
  select,
  input,
  textarea {
    font: inherit;
    color: inherit;
  }
  button {
    min-height: 2.25rem;
    padding: 0.25rem 0.75rem;
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
  }
  button:disabled {
    opacity: 0.55;
    cursor: not-allowed;
  }
  button.icon {
    min-width: 2.25rem;
    padding: 0.25rem 0.5rem;
    display: inline-grid;
    place-items: center;
  }
  .glyph {
    display: block;
  }
  select,
  input,
  textarea {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.35rem 0.5rem;
    background: var(--_bg);
    max-width: 100%;
  }
  label {
    display: inline-flex;
    gap: 0.4rem;
    align-items: center;
  }
  .status {
    min-height: 1.5rem;
    color: var(--_muted);
    margin: 0.25rem 0;
  }
  .error {
    color: var(--_danger);
    border: 1px solid var(--_danger);
    border-radius: var(--_radius);
    padding: 0.5rem 0.75rem;
    margin: 0.5rem 0;
  }
  .hint {
    color: var(--_muted);
    font-size: 0.875rem;
    margin: 0 0 0.5rem;
  }
  .hint.warning {
    color: var(--_danger);
  }
  ol.widgets {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.75rem;
  }
  /* The texts of a language left, while the next one's are read: shown, not editable. */
  ol.widgets[inert] {
    opacity: 0.6;
  }
  li.widget {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_bg);
  }
  li.widget.drop-target {
    border-color: var(--_accent);
    box-shadow: 0 0 0 2px var(--_accent);
  }
  .widget-bar {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem;
    align-items: center;
    padding: 0.25rem 0.5rem;
    background: var(--_surface);
    border-bottom: 1px solid var(--_border);
    border-radius: var(--_radius) var(--_radius) 0 0;
  }
  .widget-bar .name {
    flex: 1;
    font-size: 0.875rem;
    color: var(--_muted);
  }
  .handle {
    cursor: grab;
    display: inline-grid;
    place-items: center;
    min-width: 1.5rem;
    min-height: 2.25rem;
    color: var(--_muted);
  }
  ol.entries {
    margin: 0;
    padding: 0.5rem 0.75rem;
    list-style: none;
    display: grid;
    gap: 0.25rem;
    border-bottom: 1px solid var(--_border);
  }
  ol.entries li {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 0.5rem;
    align-items: center;
  }
  .entry-text {
    flex: 1;
    min-width: 10rem;
    font-size: 0.875rem;
  }
  .widget-body {
    padding: 0.75rem;
    overflow-wrap: anywhere;
    /* The chrome's theme stops here: the content's --ccs-* go back to the content stylesheet's
       defaults (a property set to initial is unset), so the admin's accent does not colour the
       shop's buttons. A host themes the preview with ccs-editor::part(preview) { --ccs-…: … }. */
    --ccs-accent: initial;
    --ccs-accent-text: initial;
    --ccs-border: initial;
    --ccs-font: initial;
    --ccs-font-size: initial;
    --ccs-gap: initial;
    --ccs-heading: initial;
    --ccs-heading-font: initial;
    --ccs-line-height: initial;
    --ccs-max-width: initial;
    --ccs-muted: initial;
    --ccs-radius: initial;
    --ccs-space: initial;
    --ccs-surface: initial;
    --ccs-text: initial;
  }
  .widget-body > .ccs-widget {
    margin-bottom: 0;
  }
  .widget-body img {
    max-width: 100%;
    height: auto;
  }
  .ccs-editable {
    cursor: text;
    border-radius: 2px;
  }
  .ccs-editable:hover {
    outline: 1px dashed var(--_accent);
  }
  .ccs-editable[contenteditable] {
    outline: 2px solid var(--_accent);
    background: var(--_surface);
  }
  .ccs-editable.invalid {
    outline-color: var(--_danger);
  }
  .panel {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.75rem;
    margin: 0.75rem 0;
    background: var(--_surface);
  }
  .panel h3 {
    margin: 0 0 0.5rem;
    font-size: 1rem;
  }
  .grid {
    display: grid;
    gap: 0.5rem;
    grid-template-columns: repeat(auto-fill, minmax(10rem, 1fr));
  }
  .choice {
    display: flex;
    flex-direction: column;
    align-items: stretch;
    text-align: left;
    gap: 0.25rem;
  }
  .choice img {
    width: 100%;
    height: 7.5rem;
    object-fit: contain;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .choice small {
    color: var(--_muted);
  }
  .field {
    display: grid;
    gap: 0.25rem;
    margin-bottom: 0.5rem;
  }
  .counter {
    font-size: 0.8rem;
    color: var(--_muted);
    justify-self: end;
  }
  .counter.over {
    color: var(--_danger);
    font-weight: 600;
  }
  .progress {
    display: flex;
    gap: 0.5rem;
    align-items: center;
  }
  progress {
    width: 10rem;
  }
  .fatal {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  .error .stale-reload {
    display: block;
    margin-top: 0.5rem;
  }
  .fatal .error {
    flex: 1 1 16rem;
    margin: 0;
  }
  .undo {
    display: flex;
    gap: 0.5rem;
    align-items: center;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
  @container (max-width: 480px) {
    header {
      flex-direction: column;
      align-items: stretch;
    }
    .widget-bar .name {
      flex-basis: calc(100% - 2rem);
    }
  }
`;
