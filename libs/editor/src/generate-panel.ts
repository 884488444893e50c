import { html, nothing } from 'lit';
import { estimateGeneration } from '@catalogue/credits/estimate';
import { ApiError } from './api';
import { designName, errorMessage, languageName, type Translate } from './i18n';
import { renderReplaceQuestion, ReplaceQuestionController } from './confirm-replace';
import { activeIn, fieldChecked, fieldValue, isObject } from './guards';
import { PanelBase } from './panel-base';
import type {
  Data,
  DesignStructure,
  DesignView,
  GenerationJobView,
  PriceView,
  PromptView,
  RemainingCredits,
} from '@catalogue/content/v3';

const NOTHING_TO_WRITE_FROM = new Set(['generation_material_missing', 'replaced_language_missing']);

/**
 * A refusal in the UI language: "nothing to write from" names the languages and what to add
 * (the API's `code` and `languages`), every other error as the editor says errors.
 */
export function refusalMessage(t: Translate, err: unknown): string {
  const body = err instanceof ApiError && isObject(err.body) ? err.body : undefined;
  if (
    typeof body?.code !== 'string' ||
    !NOTHING_TO_WRITE_FROM.has(body.code) ||
    !Array.isArray(body.languages)
  )
    return errorMessage(t, err);
  const languages = body.languages.map(String);
  const inWords = languages
    .map((l) => (l === 'default' ? t('inMainLanguage') : t('inLanguage', { language: languageName(t, l) })))
    .join(', ');
  const main = languages.includes('default') ? ` ${t('refusedMainLanguageHint')}` : '';
  return body.code === 'replaced_language_missing'
    ? `${t('refusedReplacedLanguage', { in: inWords, replace: t('removeExisting') })}${main}`
    : `${t('refusedNoMaterial', { in: inWords })}${main}`;
}

/**
 * The generate form: prompt, language, design, replace or append, web research URLs; the
 * estimate (the service's own formula, libs/credits) against the remaining credits before
 * starting, and the start refused here when it cannot be afforded. A start that replaces the
 * widgets is checked first (`POST …/generate/check`, the start's own checks, nothing written):
 * a refusal (nothing to write a language from, credits, a job running) is shown before the
 * owner is asked to confirm deleting anything. A refusal from the API (409 running, 422 credits
 * or fields, 503 queue down) is shown in the form, which keeps everything the person entered;
 * changing the form clears it.
 */
export class CcsGeneratePanel extends PanelBase {
  static override properties = {
    ...PanelBase.properties,
    entityPath: { attribute: false },
    entityType: { attribute: false },
    languages: { attribute: false },
    lang: { attribute: false },
    count: { attribute: false },
    running: { attribute: false },
    prompts: { state: true },
    designs: { state: true },
    prices: { state: true },
    remaining: { state: true },
    fillable: { state: true },
    form: { state: true },
    replaced: { attribute: false },
    spent: { attribute: false },
    message: { state: true },
    sending: { state: true },
    checkedCost: { state: true },
  };
  /**
   * What the service's pre-check said the start reserves (a replace writes other languages
   * again, so it can be more than the one-language estimate); null until checked, and again
   * whenever the form changes.
   */
  declare checkedCost: number | null;
  /** The widgets shown now, as the owner recognises them (a replacing generation deletes them). */
  declare replaced: readonly string[];
  /** Reads what generations already cost for the content (told in the replace question). */
  declare spent: (() => Promise<number>) | undefined;
  /** A start that replaces the widgets asks first. */
  private readonly question = new ReplaceQuestionController(this);
  declare entityPath: string;
  declare entityType: string;
  declare languages: string[];
  /** How many widgets the entity shows now (a replacing generation deletes them). */
  declare count: number;
  declare lang: string;
  declare running: boolean;
  declare prompts: PromptView[];
  declare designs: DesignView[];
  declare prices: PriceView[] | null;
  declare remaining: number | null;
  declare fillable: Record<number, number>;
  declare form: {
    prompt: number;
    lang: string;
    design: number;
    replace: boolean;
    research: boolean;
    urls: string;
  };
  declare message: string;
  declare sending: boolean;

  constructor() {
    super();
    this.prompts = [];
    this.designs = [];
    this.prices = null;
    this.remaining = null;
    this.fillable = {};
    this.count = 0;
    this.form = { prompt: 0, lang: 'default', design: 0, replace: false, research: false, urls: '' };
    this.message = '';
    this.sending = false;
    this.replaced = [];
    this.checkedCost = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.form = { ...this.form, lang: this.lang };
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const [prompts, designs, credit, prices] = await Promise.all([
        this.api.get<Data<PromptView[]>>('/prompt'),
        this.api.get<Data<DesignView[]>>(`/design?type=${this.entityType}`),
        this.api.get<Data<RemainingCredits>>('/credit'),
        fetch(this.api.url('public/credit')).then((r) => r.json() as Promise<Data<PriceView[]>>),
      ]);
      this.prompts = prompts.data;
      this.designs = designs.data;
      this.remaining = credit.data.remaining;
      this.prices = prices.data;
      this.form = { ...this.form, design: designs.data[0]?.id ?? 0 };
      await this.loadStructure(this.form.design);
    } catch (err) {
      this.message = errorMessage(this.t, err);
    }
  }

  private async loadStructure(id: number): Promise<void> {
    if (!id || id in this.fillable) return;
    const structure = await this.api.get<DesignStructure>(`/design/${id}/structure`);
    this.fillable = { ...this.fillable, [id]: structure.widget.filter((w) => w.fillable).length };
  }

  private urls(): string[] {
    return [
      ...new Set(
        this.form.urls
          .split(/\s+/)
          .map((u) => u.trim())
          .filter(Boolean),
      ),
    ];
  }

  private cost(): number | null {
    if (this.checkedCost !== null) return this.checkedCost;
    const widgets = this.fillable[this.form.design];
    if (!this.prices || widgets === undefined) return null;
    const prompt = this.prompts.find((p) => p.id === this.form.prompt);
    try {
      return estimateGeneration(this.prices, {
        widgets,
        languages: 1,
        webResearchUrls: this.form.research ? this.urls().length : 0,
        serpContext: prompt?.use_serp_context ?? false,
      }).total;
    } catch {
      return null;
    }
  }

  /** A prompt brings its own settings (as the API would apply them); the form can still change them. */
  private pickPrompt(id: number): void {
    const prompt = this.prompts.find((p) => p.id === id);
    this.set({
      prompt: id,
      replace: prompt?.remove_exist_widget ?? false,
      research: prompt?.use_web_research ?? false,
      urls: (prompt?.search_web ?? []).join('\n'),
    });
  }

  private set(patch: Partial<CcsGeneratePanel['form']>): void {
    // A refusal was about the request sent: another language or design is another request.
    if ((patch.lang && patch.lang !== this.form.lang) || (patch.design && patch.design !== this.form.design))
      this.message = '';
    this.form = { ...this.form, ...patch };
    // A refusal (or a check) was about the form as it was (another language, replace or not).
    this.message = '';
    this.checkedCost = null;
    if (patch.design)
      void this.loadStructure(patch.design).catch(
        (err: unknown) => (this.message = errorMessage(this.t, err)),
      );
  }

  private body() {
    return {
      design_id: this.form.design || null,
      prompt_id: this.form.prompt || null,
      lang: this.form.lang,
      remove_exist_widget: this.form.replace,
      use_web_research: this.form.research,
      search_web: this.form.research ? this.urls() : [],
    };
  }

  /**
   * Start: a replacing start is checked first and asks only when the check passes; any other
   * starts at once (its refusal is the same words).
   */
  private async requestStart(): Promise<void> {
    if (this.sending) return;
    this.message = '';
    const replaces = this.form.replace && this.replaced.length > 0;
    if (replaces) {
      this.sending = true;
      this.message = '';
      try {
        const { data } = await this.api.post<
          Data<{ estimated_cost: number; remaining: number; languages: string[] }>
        >(`/content${this.entityPath}/generate/check`, this.body());
        this.checkedCost = data.estimated_cost;
        this.remaining = data.remaining;
      } catch (err) {
        this.message = refusalMessage(this.t, err);
        this.sending = false;
        await this.updateComplete;
        this.renderRoot.querySelector<HTMLElement>('.error')?.focus();
        return;
      }
      this.sending = false;
    }
    await this.question.ask(replaces, () => this.start(), this.spent);
  }

  private async start(): Promise<void> {
    this.question.answered();
    if (this.sending) return;
    const body = this.body();
    if (!this.allowed({ action: 'generate', ...body })) {
      this.message = this.t('saveVetoed');
      return;
    }
    this.sending = true;
    this.message = '';
    try {
      const { data } = await this.api.post<Data<GenerationJobView>>(
        `/content${this.entityPath}/generate`,
        body,
      );
      this.send('ccs-started', data);
      this.close();
    } catch (err) {
      this.message = refusalMessage(this.t, err);
      // A 409 names the job already running: follow it instead of starting another.
      const running =
        err instanceof ApiError && err.status === 409
          ? (err.body as { data?: GenerationJobView }).data
          : undefined;
      if (running) this.send('ccs-started', running);
      const remaining = err instanceof ApiError && isObject(err.body) ? err.body.remaining : undefined;
      if (typeof remaining === 'number') this.remaining = remaining;
      this.dispatchEvent(new CustomEvent('ccs-failed', { detail: err, bubbles: true, composed: true }));
      this.sending = false;
    } finally {
      this.sending = false;
    }
  }

  /** Whether Start had focus before this update (a disabled button loses it). */
  private startFocused = false;

  protected override willUpdate(): void {
    const start = this.renderRoot.querySelector('button.primary');
    this.startFocused = start !== null && activeIn(this.renderRoot) === start;
  }

  /**
   * Start may become disabled while it has focus (a refused start, the estimate arriving over
   * the remaining credits): focus then goes to the message saying why, not to the page.
   */
  protected override updated(): void {
    const start = this.renderRoot.querySelector<HTMLButtonElement>('button.primary');
    if (!this.startFocused || (start && !start.disabled)) return;
    const why =
      this.renderRoot.querySelector<HTMLElement>('.error') ?? this.renderRoot.querySelector('.estimate');
    why?.focus();
  }

  protected override render() {
    const t = this.t;
    const cost = this.cost();
    const affordable = cost === null || this.remaining === null || cost <= this.remaining;
    return html`<section class="panel" aria-labelledby="gen-title">
      <h3 id="gen-title">${t('generateTitle')}</h3>
      <div class="field">
        <label for="g-prompt">${t('prompt')}</label>
        <select id="g-prompt" @change=${(e: Event) => this.pickPrompt(Number(fieldValue(e)))}>
          <option value="0">${t('promptNone')}</option>
          ${this.prompts.map((p) => html`<option value=${p.id} ?selected=${p.id === this.form.prompt}>${p.name}</option>`)}
        </select>
      </div>
      <div class="field">
        <label for="g-design">${t('design')}</label>
        <select id="g-design" @change=${(e: Event) => this.set({ design: Number(fieldValue(e)) })}>
          ${this.designs.map((d) => html`<option value=${d.id} ?selected=${d.id === this.form.design}>${designName(d, t)}</option>`)}
        </select>
      </div>
      <div class="field">
        <label for="g-lang">${t('generateLang')}</label>
        <select id="g-lang" @change=${(e: Event) => this.set({ lang: fieldValue(e) })}>
          ${this.languages.map((l) => html`<option value=${l} ?selected=${l === this.form.lang}>${languageName(t, l)}</option>`)}
        </select>
      </div>
      <label
        ><input
          type="checkbox"
          .checked=${this.form.replace}
          @change=${(e: Event) => this.set({ replace: fieldChecked(e) })}
        />${t('removeExisting')}</label
      >
      ${this.form.replace && this.count > 0 ? html`<p class="hint warning">${t('replaceWarning', { n: this.count })}</p>` : nothing}
      <label
        ><input
          type="checkbox"
          .checked=${this.form.research}
          @change=${(e: Event) => this.set({ research: fieldChecked(e) })}
        />${t('webResearch')}</label
      >
      ${
        this.form.research
          ? html`<div class="field">
              <label for="g-urls">${t('researchUrls')}</label>
              <textarea
                id="g-urls"
                rows="3"
                .value=${this.form.urls}
                @input=${(e: Event) => this.set({ urls: fieldValue(e) })}
              ></textarea>
            </div>`
          : nothing
      }
      <p class="estimate" aria-live="polite" tabindex="-1">
        ${
          this.remaining === null
            ? t('loading')
            : cost === null
              ? t('estimateUnknown', { remaining: this.remaining })
              : affordable
                ? t('estimate', { cost, remaining: this.remaining })
                : t('cannotAfford', { cost, remaining: this.remaining })
        }
      </p>
      ${this.message ? html`<div class="error" role="alert" tabindex="-1">${this.message}</div>` : nothing}
      ${
        this.question.asking
          ? renderReplaceQuestion(t, {
              replaced: this.replaced,
              languages: this.languages.map((l) => languageName(t, l)),
              spent: this.question.spent,
              action: t('confirmGenerate'),
              confirm: () => void this.start(),
              cancel: () => void this.question.keep(),
            })
          : html`<div class="toolbar">
              <button
                class="primary"
                ?disabled=${this.running || !affordable || !this.form.design}
                aria-disabled=${this.sending ? 'true' : 'false'}
                @click=${() => void this.requestStart()}
              >
                ${t('start')}
              </button>
              <button @click=${() => this.close()}>${t('close')}</button>
            </div>`
      }
    </section>`;
  }
}

if (!customElements.get('ccs-generate-panel')) customElements.define('ccs-generate-panel', CcsGeneratePanel);
