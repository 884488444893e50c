import Joi from 'joi';
import { WHITE_LABEL_ENTITY_TYPES, type WhiteLabelEntityType } from '@catalogue/config';
import { baseComponent, dataResponse, entityTypeEnum, idSchema, responseObject } from './common.schema';
import { fieldSpecShape } from './widgets.schema';

export const listDesignsQuery = Joi.object<{ type?: WhiteLabelEntityType }, true>({
  type: Joi.string().valid(...WHITE_LABEL_ENTITY_TYPES),
});

export const designParams = Joi.object<{ design_id: number }, true>({ design_id: idSchema.required() });

export const designShape = responseObject({
  id: Joi.number().integer(),
  name: Joi.string(),
  name_translation: baseComponent('WlLangMap'),
  info: Joi.string().allow(null),
  image_preview: Joi.string()
    .uri()
    .description(
      'A thumbnail of the design: a stored image URL, else an SVG the service draws from the\nwidget layout (`/design-preview/v1/{id}/{hash}.svg` on this API; public, cacheable).\n',
    ),
  category: entityTypeEnum,
  type: Joi.string().valid('public', 'custom'),
  position: Joi.number().integer(),
  hash: Joi.string()
    .pattern(/^[0-9a-f]{64}$/)
    .description("sha-256 of the design's structure."),
  widgets_count: Joi.number().integer().min(0),
  preview_url: Joi.string()
    .uri()
    .description(
      'A page of the design filled with its sample content\n(`/design-preview/v1/{id}/{hash}.html` on this API; public, cacheable). The same HTML\nwithout the page is `GET /design/{design_id}/preview`.\n',
    ),
}).id('WlDesign');

/** GET /design 200. */
export const designsResponse = dataResponse(Joi.array().items(designShape));

/** GET /design/{design_id}/preview 200. */
export const designPreviewResponse = dataResponse(
  responseObject({ id: Joi.number().integer(), html: Joi.string() }),
);

const structureWidget = {
  design_widget_id: Joi.number().integer(),
  position: Joi.number().integer().min(1),
  type: Joi.string(),
  widget_name: Joi.string(),
};

/** GET /design/{design_id}/structure 200. */
export const designStructureResponse = responseObject({
  design_id: Joi.number().integer(),
  design_name: Joi.string(),
  category: entityTypeEnum,
  widget: Joi.array().items(
    Joi.alternatives()
      .try(
        responseObject({
          ...structureWidget,
          widget_description: Joi.string(),
          fillable: Joi.valid(true),
          item_count: Joi.number().integer().min(0),
          field: Joi.array().items(fieldSpecShape),
          item_field: Joi.array().items(fieldSpecShape),
          image_slot: Joi.number().integer().min(0),
          icon_slot: Joi.number().integer().min(0),
        }),
        responseObject({
          ...structureWidget,
          fillable: Joi.valid(false),
          reason: Joi.string().valid('no_content_field', 'filled_from_data'),
        }),
      )
      .match('one'),
  ),
}).id('WlDesignStructure');
