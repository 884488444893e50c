import { css } from 'lit';

/** The publish bar: the draft state stands out (not colour alone: its words say it too). */
export const publishStyles = css`
  .publish {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.5rem 0.75rem;
    margin-bottom: 0.75rem;
    background: var(--_surface);
  }
  .publish-row {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
    justify-content: space-between;
  }
  .state {
    margin: 0;
    display: grid;
    gap: 0.125rem;
  }
  .state.draft strong {
    color: var(--ccs-draft, #92400e);
  }
  .state.draft strong::before {
    content: '';
    display: inline-block;
    width: 0.625rem;
    height: 0.625rem;
    margin-right: 0.375rem;
    border-radius: 50%;
    background: currentColor;
  }
  .publish-actions,
  .confirm {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  .confirm p {
    margin: 0;
  }
  .publish-message {
    margin: 0.25rem 0 0;
  }
  .publish-message:empty {
    display: none;
  }
  .storefront-preview {
    margin-top: 0.5rem;
    border-top: 1px solid var(--_border);
    padding-top: 0.5rem;
  }
  .storefront-preview h3 {
    font-size: 1rem;
    margin: 0 0 0.5rem;
  }
  .storefront-preview .ccs-content {
    background: #ffffff;
    color: #111827;
    padding: 0.75rem;
    border-radius: var(--_radius);
  }
`;
