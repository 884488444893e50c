import { html, nothing } from 'lit';
import { ApiError } from './api';
import { designName, errorMessage } from './i18n';
import { renderReplaceQuestion, ReplaceQuestionController } from './confirm-replace';
import { fieldValue } from './guards';
import { PanelBase } from './panel-base';
import type {
  Data,
  DesignStructure,
  DesignView,
  FieldSpec,
  FillDesignView,
  StructureWidget,
} from '@catalogue/content/v3';

type Texts = Record<string, string>;
interface Entry {
  fields: Texts;
  items: Texts[];
  image: string;
  icon: string;
}

/**
 * Pick a design from its preview, then a form generated from `/design/{id}/structure` (fields
 * with live counters against `max_length`, item counts, image/icon URL slots), then fill-design.
 * A refused fill keeps the form as typed and shows the service's messages.
 */
export class CcsDesignsPanel extends PanelBase {
  static override properties = {
    ...PanelBase.properties,
    entityPath: { attribute: false },
    entityType: { attribute: false },
    designs: { state: true },
    structure: { state: true },
    entries: { state: true },
    replaced: { attribute: false },
    spent: { attribute: false },
    languageNames: { attribute: false },
    lang: { attribute: false },
    message: { state: true },
    sending: { state: true },
  };
  declare entityPath: string;
  declare entityType: string;
  /** The widgets shown now (a fill replaces them all) and the eshop's languages by name. */
  declare replaced: readonly string[];
  /** Reads what generations already cost for the content (told in the replace question). */
  declare spent: (() => Promise<number>) | undefined;
  declare languageNames: readonly string[];
  /** The content language shown: the fill writes this language's texts only (`?lang=`). */
  declare lang: string;
  /** A fill replaces every widget: it asks first when there are some. */
  private readonly question = new ReplaceQuestionController(this);
  declare designs: DesignView[] | null;
  declare structure: DesignStructure | null;
  declare entries: Record<number, Entry>;
  declare message: string;
  declare sending: boolean;

  constructor() {
    super();
    this.designs = null;
    this.structure = null;
    this.entries = {};
    this.message = '';
    this.sending = false;
    this.replaced = [];
    this.languageNames = [];
    this.lang = 'default';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.api.get<Data<DesignView[]>>(`/design?type=${this.entityType}`).then(
      (r) => (this.designs = r.data),
      (err: unknown) => (this.message = errorMessage(this.t, err)),
    );
  }

  private async pick(design: DesignView): Promise<void> {
    this.message = '';
    try {
      this.structure = await this.api.get<DesignStructure>(`/design/${design.id}/structure`);
      this.entries = {};
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('input, textarea')?.focus();
    } catch (err) {
      this.message = errorMessage(this.t, err);
    }
  }

  private entry(id: number): Entry {
    return this.entries[id] ?? { fields: {}, items: [], image: '', icon: '' };
  }

  private update_(id: number, patch: (e: Entry) => Entry): void {
    this.entries = { ...this.entries, [id]: patch(this.entry(id)) };
  }

  private body() {
    const lines = (s: string) =>
      s
        .split(/\s+/)
        .map((u) => u.trim())
        .filter(Boolean);
    return {
      design_id: this.structure!.design_id,
      widget: this.structure!.widget.filter((w) => w.fillable).flatMap((w) => {
        const e = this.entry(w.design_widget_id);
        const fields = Object.fromEntries(Object.entries(e.fields).filter(([, v]) => v.trim() !== ''));
        const items = e.items
          .map((i) => Object.fromEntries(Object.entries(i).filter(([, v]) => v.trim() !== '')))
          .filter((i) => Object.keys(i).length);
        const image = lines(e.image);
        const icon = lines(e.icon);
        if (!Object.keys(fields).length && !items.length && !image.length && !icon.length) return [];
        return [
          {
            design_widget_id: w.design_widget_id,
            ...(Object.keys(fields).length && { fields }),
            ...(items.length && { items }),
            ...(image.length && { image }),
            ...(icon.length && { icon }),
          },
        ];
      }),
    };
  }

  private async fill(): Promise<void> {
    this.question.answered();
    const body = this.body();
    if (!this.allowed({ action: 'fill-design', lang: this.lang, ...body })) {
      this.message = this.t('saveVetoed');
      return;
    }
    this.sending = true;
    this.message = '';
    try {
      const res = await this.api.post<FillDesignView>(
        `/entity${this.entityPath}/design?lang=${encodeURIComponent(this.lang)}`,
        body,
      );
      this.send('ccs-filled', { widget_created: res.widget_created });
    } catch (err) {
      this.message = errorMessage(this.t, err);
      if (!(err instanceof ApiError)) throw err;
      this.send('ccs-failed', err);
    } finally {
      this.sending = false;
    }
  }

  private renderField(id: string, spec: FieldSpec, value: string, set: (v: string) => void) {
    const t = this.t;
    const over = value.length > spec.max_length;
    const input = (e: Event) => set(fieldValue(e));
    return html`<div class="field">
      <label for=${id}>${t.catalogue(`hint.${spec.role}`, spec.hint || spec.role)}</label>
      ${
        spec.format === 'html' || spec.max_length > 200
          ? html`<textarea
              id=${id}
              rows="3"
              .value=${value}
              aria-invalid=${over}
              aria-describedby=${`${id}-n`}
              @input=${input}
            ></textarea>`
          : html`<input
              id=${id}
              .value=${value}
              aria-invalid=${over}
              aria-describedby=${`${id}-n`}
              @input=${input}
            />`
      }
      <span id=${`${id}-n`} class="counter ${over ? 'over' : ''}" aria-live="polite"
        >${over ? t('tooLong', { max: spec.max_length }) : t('charCount', { n: value.length, max: spec.max_length })}</span
      >
    </div>`;
  }

  private renderWidget(w: StructureWidget) {
    if (!w.fillable) return nothing;
    const t = this.t;
    const id = w.design_widget_id;
    const e = this.entry(id);
    const field = (spec: FieldSpec) =>
      this.renderField(`f-${id}-${spec.role}`, spec, e.fields[spec.role] ?? '', (v) =>
        this.update_(id, (x) => ({ ...x, fields: { ...x.fields, [spec.role]: v } })),
      );
    const item = (n: number) =>
      html`<fieldset>
        <legend>${t('entryN', { n: n + 1 })}</legend>
        ${(w.item_field ?? []).map((spec) =>
          this.renderField(`i-${id}-${n}-${spec.role}`, spec, e.items[n]?.[spec.role] ?? '', (v) =>
            this.update_(id, (x) => {
              const items = [...x.items];
              for (let k = items.length; k <= n; k++) items[k] = {};
              items[n] = { ...items[n], [spec.role]: v };
              return { ...x, items };
            }),
          ),
        )}
      </fieldset>`;
    return html`<fieldset class="design-widget">
      <legend>${w.type ? t.catalogue(`widget.${w.type}`, w.widget_name) : w.widget_name}</legend>
      ${
        w.widget_description
          ? html`<p class="hint">
              ${w.type ? t.catalogue(`widget.${w.type}.description`, w.widget_description) : w.widget_description}
            </p>`
          : nothing
      }
      ${(w.field ?? []).map(field)} ${Array.from({ length: w.item_count ?? 0 }, (_, n) => item(n))}
      ${
        w.image_slot
          ? html`<div class="field">
              <label for=${`img-${id}`}>${t('images')} (${w.image_slot})</label>
              <textarea
                id=${`img-${id}`}
                rows="2"
                .value=${e.image}
                @input=${(ev: Event) => this.update_(id, (x) => ({ ...x, image: fieldValue(ev) }))}
              ></textarea>
            </div>`
          : nothing
      }
      ${
        w.icon_slot
          ? html`<div class="field">
              <label for=${`ico-${id}`}>${t('icons')} (${w.icon_slot})</label>
              <textarea
                id=${`ico-${id}`}
                rows="2"
                .value=${e.icon}
                @input=${(ev: Event) => this.update_(id, (x) => ({ ...x, icon: fieldValue(ev) }))}
              ></textarea>
            </div>`
          : nothing
      }
    </fieldset>`;
  }

  protected override render() {
    const t = this.t;
    const error = this.message ? html`<div class="error" role="alert">${this.message}</div>` : nothing;
    if (this.structure) {
      // An unfillable widget has no `field` (read as none: the same code as before the v3 types).
      const over = this.structure.widget.some((w) =>
        [...(w.fillable ? (w.field ?? []) : [])].some(
          (s) => (this.entry(w.design_widget_id).fields[s.role] ?? '').length > s.max_length,
        ),
      );
      return html`<section class="panel" aria-labelledby="fill-title">
        <h3 id="fill-title">${t('designsTitle')}: ${this.structure.design_name}</h3>
        ${this.structure.widget.map((w) => this.renderWidget(w))} ${error}
        ${
          this.question.asking
            ? renderReplaceQuestion(t, {
                replaced: this.replaced,
                languages: this.languageNames,
                spent: this.question.spent,
                action: t('confirmFill'),
                confirm: () => void this.fill(),
                cancel: () => void this.question.keep(),
              })
            : html`<div class="toolbar">
                <button
                  class="primary"
                  ?disabled=${this.sending || over}
                  @click=${() => void this.question.ask(this.replaced.length > 0, () => this.fill(), this.spent)}
                >
                  ${t('fill')}
                </button>
                <button @click=${() => (this.structure = null)}>${t('back')}</button>
                <button @click=${() => this.close()}>${t('close')}</button>
              </div>`
        }
      </section>`;
    }
    return html`<section class="panel" aria-labelledby="designs-title">
      <h3 id="designs-title">${t('designs')}</h3>
      ${this.designs === null && !this.message ? html`<p class="hint">${t('loading')}</p>` : nothing} ${error}
      <div class="grid">
        ${(this.designs ?? []).map((d) => {
          const name = designName(d, t);
          return html`<div class="choice">
            ${d.image_preview ? html`<img src=${d.image_preview} alt=${t('previewOf', { name })} width="160" height="120" />` : nothing}
            <strong>${name}</strong><small>${t('widgetCount', { n: d.widgets_count })}</small>
            ${
              d.preview_url
                ? html`<a
                    href=${d.preview_url}
                    target="_blank"
                    rel="noopener"
                    aria-label=${`${t('openPreview')}: ${name}`}
                    >${t('openPreview')}</a
                  >`
                : nothing
            }
            <button
              data-design=${d.id}
              aria-label=${`${t('pickDesign')}: ${name}`}
              @click=${() => void this.pick(d)}
            >
              ${t('pickDesign')}
            </button>
          </div>`;
        })}
      </div>
      <div class="toolbar"><button @click=${() => this.close()}>${t('close')}</button></div>
    </section>`;
  }
}

if (!customElements.get('ccs-designs-panel')) customElements.define('ccs-designs-panel', CcsDesignsPanel);
