import Joi from 'joi';
import { dataResponse, idSchema, responseObject } from './common.schema';

export const listWidgetsQuery = Joi.object<{ category_id?: number }, true>({ category_id: idSchema });

/** What a widget can be filled with, one text field of it (as in a design structure). */
export const fieldSpecShape = responseObject({
  role: Joi.string(),
  format: Joi.string().valid('html', 'text', 'url', 'video_url'),
  max_length: Joi.number().integer().min(0).description('Characters of text content.'),
  hint: Joi.string(),
}).id('WlFieldSpec');

export const widgetShape = responseObject({
  id: Joi.number().integer().description('The `widget_id` of content widgets and favourites.'),
  type: Joi.string().example('section').example('benefit').example('image_text'),
  name: Joi.string(),
  description: Joi.string(),
  category_id: Joi.number().integer(),
  category_key: Joi.string().example('text').example('commerce').example('media').example('layout'),
  category_name: Joi.string(),
  fillable: Joi.boolean(),
  reason: Joi.string().valid('no_content_field', 'filled_from_data').allow(null),
  item_count: Joi.number().integer().min(0),
  field: Joi.array().items(fieldSpecShape),
  item_field: Joi.array().items(fieldSpecShape),
  image_slot: Joi.number().integer().min(0),
  icon_slot: Joi.number().integer().min(0),
  item_class: Joi.string()
    .allow(null)
    .description(
      'The class of the element the widget repeats once per item or image (a benefit, a question, a table row, a gallery picture): the element an editor offers to duplicate or remove with element-copy. `null` when the widget repeats nothing.',
    )
    .example('ccs-faq__item'),
})
  .id('WlWidget')
  .description('A widget of the catalogue and what it can be filled with (as in a design structure).');

/** GET /widget 200. */
export const widgetsResponse = dataResponse(Joi.array().items(widgetShape));
