import Joi from 'joi';
import { CONTENT_LANGUAGES, type Language } from '@catalogue/config';
import type { FillDesignInput } from '../services/fill-design.service';
import { baseComponent, idSchema, responseObject } from './common.schema';

/**
 * The envelope only: each widget entry is checked against the design's structure by libs/content
 * `fillDesign`, which reports every problem keyed by its path (`widget.0.fields.paragraph`).
 * No design has more widgets than this, and duplicates are refused there, so the cap only stops
 * oversized requests early.
 */
/**
 * `?lang=`: the language the fill is written in (its plain strings are that language's texts);
 * without it plain strings are `default`'s. It must be active for the eshop (checked by the service).
 */
export const fillDesignQuery = Joi.object<FillDesignQuery, true>({
  lang: Joi.string().valid(...CONTENT_LANGUAGES),
}).unknown(true);

export interface FillDesignQuery {
  lang?: Language;
}

export const fillDesignBody = Joi.object<FillDesignInput, true>({
  // A JSON integer, as in generate: `"1"` is not converted (the request validator converts by default).
  design_id: idSchema.strict().required(),
  widget: Joi.array().items(Joi.object().unknown(true)).min(1).max(100).required(),
}).required();

/** Texts by role: one string or a language map each. */
const textsByRole = Joi.object().pattern(Joi.string(), baseComponent('WlText'));

/**
 * The body as documented (docs/openapi.yaml): what fillDesign checks each widget entry for.
 * Documentation only; fillDesignBody is what validates.
 */
export const fillDesignDocumentedBody = Joi.object({
  design_id: Joi.number().integer().min(1).required(),
  widget: Joi.array()
    .items(
      Joi.object({
        design_widget_id: Joi.number().integer().required(),
        fields: textsByRole.description("Texts by role (the structure's `field`)."),
        items: Joi.array()
          .items(textsByRole)
          .description("At most `item_count` items, each with texts by role (the structure's `item_field`)."),
        image: Joi.array().items(Joi.string().uri()),
        icon: Joi.array().items(Joi.string().uri()),
      }),
    )
    .min(1)
    .max(100)
    .required(),
});

/** POST …/design 200. */
export const fillDesignResponse = responseObject({
  html: baseComponent('WlHtmlMap'),
  widget_created: Joi.number().integer().min(1),
});
