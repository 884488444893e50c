import { html, nothing } from 'lit';
import { fieldValue } from './guards';
import { PanelBase } from './panel-base';
import type { Data, FavouriteView, WidgetView } from '@catalogue/content/v3';

/** Adds a widget from the catalogue (by category) or from the eshop's favourites, at a position. */
export class CcsAddPanel extends PanelBase {
  static override properties = {
    ...PanelBase.properties,
    count: { attribute: false },
    catalogue: { state: true },
    favourites: { state: true },
    category: { state: true },
    position: { state: true },
    failed: { state: true },
  };
  declare count: number;
  declare catalogue: WidgetView[] | null;
  declare favourites: FavouriteView[] | null;
  declare category: number;
  declare position: number;
  declare failed: boolean;

  constructor() {
    super();
    this.count = 0;
    this.catalogue = null;
    this.favourites = null;
    this.category = 0;
    this.position = -1;
    this.failed = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void Promise.all([
      this.api.get<Data<WidgetView[]>>('/widget'),
      this.api.get<Data<FavouriteView[]>>('/widget-favourite'),
    ]).then(
      ([catalogue, favourites]) => {
        this.catalogue = catalogue.data;
        this.favourites = favourites.data;
        this.category = catalogue.data[0]?.category_id ?? 0;
      },
      (err: unknown) => {
        this.failed = true;
        this.send('ccs-failed', err);
      },
    );
  }

  private at(): Record<string, number> {
    return this.position >= 0 ? { position: this.position } : {};
  }

  protected override render() {
    const t = this.t;
    const categories = new Map(
      (this.catalogue ?? []).map((w) => [
        w.category_id,
        t.catalogue(`category.${w.category_key}`, w.category_name),
      ]),
    );
    const shown = (this.catalogue ?? []).filter((w) => w.category_id === this.category);
    return html`<section class="panel" aria-labelledby="add-title">
      <h3 id="add-title">${t('addTitle')}</h3>
      <div class="toolbar">
        <label
          >${t('addPosition')}
          <select @change=${(e: Event) => (this.position = Number(fieldValue(e)))}>
            <option value="-1">${t('addAtEnd')}</option>
            ${Array.from({ length: this.count }, (_, i) => html`<option value=${i}>${t('addBefore', { n: i + 1 })}</option>`)}
          </select>
        </label>
        <label
          >${t('category')}
          <select @change=${(e: Event) => (this.category = Number(fieldValue(e)))}>
            ${[...categories].map(([id, name]) => html`<option value=${id} ?selected=${id === this.category}>${name}</option>`)}
          </select>
        </label>
        <button @click=${() => this.close()}>${t('close')}</button>
      </div>
      ${this.catalogue === null && !this.failed ? html`<p class="hint">${t('loading')}</p>` : nothing}
      <h4>${t('catalogue')}</h4>
      <div class="grid">
        ${shown.map(
          (w) =>
            html`<button
              class="choice"
              data-widget-type=${w.type}
              @click=${() => this.send('ccs-add', { body: { widget_id: w.id, ...this.at() }, via: 'catalogue' })}
            >
              <strong>${t.catalogue(`widget.${w.type}`, w.name)}</strong
              ><small>${t.catalogue(`widget.${w.type}.description`, w.description)}</small>
            </button>`,
        )}
      </div>
      <h4>${t('favourites')}</h4>
      ${this.favourites?.length === 0 ? html`<p class="hint">${t('noFavourites')}</p>` : nothing}
      <div class="grid">
        ${(this.favourites ?? []).map(
          (f) =>
            html`<button
              class="choice"
              @click=${() => this.send('ccs-add', { body: { widget_id: f.widget_id, json: f.children, ...this.at() }, via: 'favourite' })}
            >
              <strong>${f.name}</strong>
            </button>`,
        )}
      </div>
    </section>`;
  }
}

if (!customElements.get('ccs-add-panel')) customElements.define('ccs-add-panel', CcsAddPanel);
