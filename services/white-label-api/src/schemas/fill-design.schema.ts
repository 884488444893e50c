import Joi from 'joi';
import { CONTENT_LANGUAGES, type Language } from '@catalogue/config';
import type { FillDesignInput } from '../services/fill-design.service';
import { idSchema } from './common.schema';

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
