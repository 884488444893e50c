/**
 * `<ccs-batch-progress>`: the progress of one bulk generation (a batch, see the "Bulk generation"
 * extension in libs/editor/README.md) for a host page, read from white-label-api v3 with the
 * editor's token. It polls the batch while it can still change (every `interval` ms; after a
 * failed read it waits twice as long each time, at most a minute; not while the page is hidden),
 * stops once it has ended with its charges settled (`isOver`), and offers Pause, Resume and
 * Cancel (asked to confirm) while it takes them (`canAct`). The host hears `ccs-batch-progress`
 * on every change and `ccs-batch-finished` once it is over.
 */
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { styleMap } from 'lit/directives/style-map.js';
import { Api, ApiError } from './api';
import { batchStyles } from './batch-styles';
import {
  cachedTranslator,
  errorMessage,
  loadMessages,
  messagesToLoad,
  type MessageOverrides,
  type Translate,
} from './i18n';
import type { MessageKey } from './messages/en';

export type BatchStatus = 'queued' | 'running' | 'paused' | 'cancelled' | 'finished';

/** A batch as every bulk generation endpoint answers it. */
export interface BatchView {
  id: number;
  status: BatchStatus;
  entity_type: string;
  languages: string[];
  design_id: number | null;
  prompt_id: number | null;
  counts: { total: number; queued: number; running: number; done: number; failed: number; left_out: number };
  credits: { budget: number; estimate: number; reserved: number; charged: number };
  errors: Array<{ entity_id: string; code: string; message: string }>;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** What the host hears with `ccs-batch-progress` and `ccs-batch-finished`. */
export interface BatchEventDetail {
  batch_id: number;
  status: BatchStatus;
  counts: BatchView['counts'];
  credits: BatchView['credits'];
}

/** The longest wait between two reads after failures. */
export const MAX_BACKOFF_MS = 60_000;

const STATUS_KEY: Record<BatchStatus, MessageKey> = {
  queued: 'batchQueued',
  running: 'batchRunning',
  paused: 'batchPaused',
  cancelled: 'batchCancelled',
  finished: 'batchFinished',
};

/**
 * Whether the batch can change no more (nothing to poll): it has ended (`finished_at`, set by the
 * settlement of its last item) and holds no credits, so every item's charge or release is in
 * `credits`. A cancelled batch whose items under way have not settled is not over: their charges
 * are still to come.
 */
export const isOver = (batch: BatchView): boolean =>
  batch.finished_at !== null && batch.credits.reserved === 0;

/** Whether Pause, Resume and Cancel apply (a cancelled batch takes none, although not yet over). */
export const canAct = (batch: BatchView): boolean =>
  batch.status !== 'finished' && batch.status !== 'cancelled';

/** The items a batch has dealt with: done, failed or left out. */
export const processed = (batch: BatchView): number =>
  batch.counts.done + batch.counts.failed + batch.counts.left_out;

/** Errors of one reason (code and message) and the items that met it, in the order shown. */
export interface ErrorsOfReason {
  code: string;
  message: string;
  items: string[];
}

/**
 * The errors shown, one entry per reason in the order each first appears: a cancelled batch's
 * twenty "cancelled before this item started" read as one line naming the twenty items.
 */
export function byReason(errors: BatchView['errors']): ErrorsOfReason[] {
  const groups = new Map<string, ErrorsOfReason>();
  for (const { entity_id, code, message } of errors) {
    const key = JSON.stringify([code, message]);
    const group = groups.get(key) ?? { code, message, items: [] };
    group.items.push(entity_id);
    groups.set(key, group);
  }
  return [...groups.values()];
}

type Action = 'pause' | 'resume' | 'cancel';

export class CcsBatchProgress extends LitElement {
  static override styles = batchStyles;
  static override properties = {
    apiBase: { attribute: 'api-base' },
    token: {},
    batchId: { attribute: 'batch-id' },
    uiLang: { attribute: 'ui-lang' },
    interval: { type: Number },
    messages: { attribute: false },
    batch: { state: true },
    phase: { state: true },
    status: { state: true },
    error: { state: true },
    asking: { state: true },
    acting: { state: true },
  };

  declare apiBase: string;
  declare token: string;
  /** The batch to follow; unset: the eshop's newest. */
  declare batchId: string;
  declare uiLang: string;
  /** Milliseconds between two reads while the batch runs. */
  declare interval: number;
  declare messages: MessageOverrides | undefined;
  declare batch: BatchView | null;
  declare phase: 'loading' | 'ready' | 'none' | 'fatal';
  /** What the last action did (a polite status). */
  declare status: string;
  /** Why the last read or action failed (an alert). */
  declare error: string;
  /** The Cancel question is open. */
  declare asking: boolean;
  /** An action under way (its buttons do nothing until it answers). */
  declare acting: Action | null;

  private api!: Api;
  /** Bumped on every restart: an answer for an earlier batch or token is not shown. */
  private run = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  /** A read is due but the page is hidden: it is made when the page shows again. */
  private due = false;
  /** The batch ids whose end the host has heard of. */
  private readonly ended = new Set<number>();
  private last: { id: number; updated: string; status: BatchStatus } | null = null;
  private readonly onVisible = () => {
    if (!document.hidden && this.due) {
      this.due = false;
      void this.read(this.run);
    }
  };

  constructor() {
    super();
    this.apiBase = '';
    this.token = '';
    this.batchId = '';
    this.uiLang = 'en';
    this.interval = 2000;
    this.batch = null;
    this.phase = 'loading';
    this.status = '';
    this.error = '';
    this.asking = false;
    this.acting = null;
  }

  get t(): Translate {
    return cachedTranslator(this.uiLang, this.messages);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('visibilitychange', this.onVisible);
    // Put back in the page: follow again (willUpdate starts the first time).
    if (this.api) this.restart();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('visibilitychange', this.onVisible);
    this.stop();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!this.api || changed.has('apiBase') || changed.has('token') || changed.has('batchId')) {
      this.api = new Api(this.apiBase || location.origin, this.token);
      this.restart();
    }
  }

  protected override updated(): void {
    // A UI language whose texts are served beside the bundle: read them, then draw again.
    const lang = messagesToLoad(this.uiLang, this.messages);
    if (lang)
      void loadMessages(this.api.url(`editor/v1/messages/${lang}.json`), lang).then(
        (ok) => ok && this.requestUpdate(),
      );
  }

  /** Reads the batch now (the host calls it e.g. after starting one without naming it). */
  async refresh(): Promise<void> {
    this.stop();
    await this.read(++this.run);
  }

  private restart(): void {
    this.stop();
    this.batch = null;
    this.last = null;
    this.phase = 'loading';
    this.status = '';
    this.error = '';
    this.asking = false;
    this.failures = 0;
    void this.read(++this.run);
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.due = false;
  }

  private schedule(run: number, ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (run !== this.run) return;
      if (document.hidden) this.due = true;
      else void this.read(run);
    }, ms);
  }

  private async read(run: number): Promise<void> {
    const id = this.batchId.trim();
    try {
      const batch = id
        ? await this.api.get<BatchView>(`/generation-batch/${encodeURIComponent(id)}`)
        : ((await this.api.get<{ batches: BatchView[] }>('/generation-batch')).batches[0] ?? null);
      if (run !== this.run || !this.isConnected) return;
      this.failures = 0;
      this.error = '';
      this.show(batch);
      if (batch && !isOver(batch)) this.schedule(run, this.interval);
    } catch (err) {
      if (run !== this.run || !this.isConnected) return;
      // A refused token, origin or licence, or a batch that is not this eshop's: reading again
      // cannot help.
      if (err instanceof ApiError && [401, 403, 404].includes(err.status)) {
        this.phase = this.batch ? this.phase : 'fatal';
        this.error = errorMessage(this.t, err);
        return;
      }
      this.failures++;
      const wait = Math.min(this.interval * 2 ** this.failures, MAX_BACKOFF_MS);
      this.error = this.t('batchReadFailed', {
        message: errorMessage(this.t, err),
        seconds: Math.ceil(wait / 1000),
      });
      this.schedule(run, wait);
    }
  }

  /** Shows a batch read or answered, and tells the host what changed. */
  private show(batch: BatchView | null): void {
    // A read sent before an action answered may arrive after it: the older state is not shown.
    // `updated_at` alone cannot say which is older (each write stamps its transaction's start,
    // and a cancel waiting for a settlement's lock commits after it with the earlier stamp), so a
    // batch seen cancelled or finished is never shown taking actions again, nor with fewer items
    // processed (that count only grows).
    const shown = this.batch;
    if (
      batch &&
      shown?.id === batch.id &&
      (Date.parse(batch.updated_at) < Date.parse(shown.updated_at) ||
        (!canAct(shown) && canAct(batch)) ||
        processed(batch) < processed(shown))
    )
      return;
    this.batch = batch;
    this.phase = batch ? 'ready' : 'none';
    if (!batch) return;
    const last = this.last;
    this.last = { id: batch.id, updated: batch.updated_at, status: batch.status };
    if (last?.id === batch.id && last.updated === batch.updated_at && last.status === batch.status) return;
    const detail: BatchEventDetail = {
      batch_id: batch.id,
      status: batch.status,
      counts: batch.counts,
      credits: batch.credits,
    };
    this.emit('ccs-batch-progress', detail);
    if (!canAct(batch)) this.asking = false;
    if (isOver(batch)) {
      if (!this.ended.has(batch.id)) {
        this.ended.add(batch.id);
        this.emit('ccs-batch-finished', detail);
      }
    }
  }

  private emit(name: string, detail: BatchEventDetail): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  private async act(action: Action): Promise<void> {
    const batch = this.batch;
    if (!batch || this.acting) return;
    const run = this.run;
    this.acting = action;
    this.status = '';
    this.error = '';
    try {
      const answer = await this.api.post<BatchView>(`/generation-batch/${batch.id}/${action}`);
      if (run !== this.run) return;
      this.status = this.t(
        action === 'pause' ? 'batchDidPause' : action === 'resume' ? 'batchDidResume' : 'batchDidCancel',
      );
      this.show(answer);
      if (isOver(answer)) this.stop();
      else this.schedule(run, this.interval);
    } catch (err) {
      if (run !== this.run) return;
      if (err instanceof ApiError && err.code === 'batch_finished') {
        this.status = this.t('batchOver');
        void this.read(run);
      } else this.error = errorMessage(this.t, err);
    } finally {
      if (run === this.run) this.acting = null;
    }
    await this.updateComplete;
    // The buttons are gone once the batch takes no action: focus goes to what the action said.
    if (this.batch && !canAct(this.batch) && !this.renderRoot.querySelector(':focus'))
      this.renderRoot.querySelector<HTMLElement>('.said')?.focus();
  }

  private async ask(open: boolean): Promise<void> {
    this.asking = open;
    await this.updateComplete;
    this.renderRoot
      .querySelector<HTMLButtonElement>(open ? 'button[data-no]' : 'button[data-cancel]')
      ?.focus();
  }

  private async confirmCancel(): Promise<void> {
    this.asking = false;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLButtonElement>('button[data-cancel]')?.focus();
    await this.act('cancel');
  }

  override render() {
    const t = this.t;
    const said = html`<div class="said" tabindex="-1">
      <p class="status" role="status">${this.status}</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
    </div>`;
    const batch = this.batch;
    if (!batch)
      return html`<section part="panel" aria-label=${t('batchPanel')}>
        ${this.phase === 'loading' ? html`<p class="hint">${t('batchLoading')}</p>` : nothing}
        ${this.phase === 'none' ? html`<p class="hint">${t('batchNone')}</p>` : nothing} ${said}
      </section>`;
    const num = new Intl.NumberFormat(t.lang);
    const { counts, credits } = batch;
    const done = processed(batch);
    const share = counts.total > 0 ? Math.min(1, done / counts.total) : isOver(batch) ? 1 : 0;
    const percent = new Intl.NumberFormat(t.lang, { style: 'percent', maximumFractionDigits: 1 }).format(
      share,
    );
    const text = t('batchProgressText', { done: num.format(done), total: num.format(counts.total), percent });
    const over = isOver(batch);
    const acts = canAct(batch);
    const busy = this.acting !== null;
    const pair = (key: MessageKey, value: number, cls = '') =>
      html`<div class=${cls}>
        <dt>${t(key)}</dt>
        <dd>${num.format(value)}</dd>
      </div>`;
    return html`<section part="panel" aria-labelledby="batch-title" aria-busy=${busy}>
      <header>
        <h2 id="batch-title">${t('batchTitle', { id: batch.id })}</h2>
        <span class="badge ${batch.status}" part="status">${t(STATUS_KEY[batch.status])}</span>
      </header>
      <div
        class="bar"
        part="progress"
        role="progressbar"
        aria-label=${t('batchProgress')}
        aria-valuemin="0"
        aria-valuemax=${counts.total}
        aria-valuenow=${done}
        aria-valuetext=${text}
      >
        <div class="fill ${batch.status}" style=${styleMap({ width: `${share * 100}%` })}></div>
      </div>
      <p class="progress-text">${text}</p>
      <div class="figures">
        <section aria-labelledby="batch-items">
          <h3 id="batch-items">${t('batchItems')}</h3>
          <dl>
            ${pair('batchWaiting', counts.queued)} ${pair('batchGenerating', counts.running)}
            ${pair('batchDone', counts.done, counts.done ? 'ok' : '')}
            ${pair('batchFailed', counts.failed, counts.failed ? 'bad' : '')}
            ${pair('batchLeftOut', counts.left_out)}
          </dl>
          ${counts.left_out ? html`<p class="hint">${t('batchLeftOutHint')}</p>` : nothing}
        </section>
        <section aria-labelledby="batch-credits">
          <h3 id="batch-credits">${t('batchCredits')}</h3>
          <dl>
            ${pair('batchBudget', credits.budget)} ${pair('batchEstimate', credits.estimate)}
            ${pair('batchReserved', credits.reserved)} ${pair('batchCharged', credits.charged)}
          </dl>
        </section>
      </div>
      ${
        batch.errors.length
          ? html`<section class="errors" aria-labelledby="batch-errors">
              <h3 id="batch-errors">${t('batchErrors', { n: batch.errors.length })}</h3>
              <ul>
                ${byReason(batch.errors).map(
                  (e) =>
                    html`<li>
                      <span class="message">${e.message}</span> <code class="code">${e.code}</code>
                      <span class="items"
                        >${e.items.map((id) => html` <code class="item">${id}</code>`)}</span
                      >
                    </li>`,
                )}
              </ul>
            </section>`
          : nothing
      }
      ${
        over && batch.finished_at
          ? html`<p class="hint">
              ${t('batchEnded', {
                time: new Intl.DateTimeFormat(t.lang, { dateStyle: 'medium', timeStyle: 'short' }).format(
                  new Date(batch.finished_at),
                ),
              })}
            </p>`
          : nothing
      }
      ${!acts && !over ? html`<p class="hint settling">${t('batchSettling')}</p>` : nothing}
      ${
        !acts
          ? nothing
          : html`<div class="actions" part="actions">
              <button
                data-toggle
                class="primary"
                aria-disabled=${busy}
                @click=${() => void this.act(batch.status === 'paused' ? 'resume' : 'pause')}
              >
                ${t(batch.status === 'paused' ? 'batchResume' : 'batchPause')}
              </button>
              <button
                data-cancel
                class="danger"
                aria-disabled=${busy}
                aria-expanded=${this.asking}
                aria-controls="batch-confirm"
                @click=${() => !busy && void this.ask(!this.asking)}
              >
                ${t('batchCancel')}
              </button>
            </div>`
      }
      ${
        this.asking && acts
          ? html`<div
              id="batch-confirm"
              class="confirm"
              role="group"
              aria-labelledby="batch-ask"
              @keydown=${(e: KeyboardEvent) => e.key === 'Escape' && void this.ask(false)}
            >
              <p id="batch-ask">${t('batchCancelAsk')}</p>
              <div class="actions">
                <button data-yes class="danger-fill" @click=${() => void this.confirmCancel()}>
                  ${t('batchCancelYes')}
                </button>
                <button data-no @click=${() => void this.ask(false)}>${t('batchCancelNo')}</button>
              </div>
            </div>`
          : nothing
      }
      ${said}
    </section>`;
  }
}

if (!customElements.get('ccs-batch-progress')) customElements.define('ccs-batch-progress', CcsBatchProgress);

declare global {
  interface HTMLElementTagNameMap {
    'ccs-batch-progress': CcsBatchProgress;
  }
}
