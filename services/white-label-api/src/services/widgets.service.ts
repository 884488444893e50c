import { repeatedClass, type v3 } from '@catalogue/content';
import { templateOf } from '@catalogue/content-store';
import { widgetCatalogueRepository, type CatalogueWidget, type Knex } from '@catalogue/db';

function widgetView(widget: CatalogueWidget): v3.WidgetView {
  const d = templateOf(widget);
  return {
    id: widget.id,
    type: widget.type,
    name: widget.name,
    description: widget.description,
    category_id: widget.categoryId,
    category_key: widget.categoryKey,
    category_name: widget.categoryName,
    fillable: d.fillable,
    reason: d.fillable ? null : (d.reason ?? 'no_content_field'),
    item_count: d.item_count,
    field: d.field,
    item_field: d.item_field,
    image_slot: d.image_slot,
    icon_slot: d.icon_slot,
    item_class: repeatedClass(d.template),
  };
}

/** The widget catalogue (shared by every eshop); an unknown category simply lists nothing. */
export async function listWidgets(db: Knex, categoryId?: number): Promise<v3.Data<v3.WidgetView[]>> {
  return { data: (await widgetCatalogueRepository.list(db, categoryId)).map(widgetView) };
}
