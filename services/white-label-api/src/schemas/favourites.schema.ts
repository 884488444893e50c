import Joi from 'joi';
import { CONTENT_LANGUAGES } from '@catalogue/config';
import type { CreateFavouriteInput } from '../services/favourites.service';
import {
  baseComponent,
  dataResponse,
  idSchema,
  languageMap,
  offsetTimestamp,
  responseObject,
} from './common.schema';

/** PHP-style empty map: `[]` means "nothing" wherever a map is expected. */
const emptyArray = Joi.array().max(0);

/** Attributes the renderer reads (libs/content README); URLs are judged by the service. */
const ATTRIBUTES = {
  src: Joi.string().max(2048),
  href: Joi.string().max(2048),
  alt: Joi.string().allow('').max(1000),
  title: Joi.string().allow('').max(1000),
};

const attributeObject = Joi.object(ATTRIBUTES);

/**
 * `extension` of a favourite element: a language map of attribute objects (the
 * specification's favourites shape, `{"default": {"src": …}, "cs": []}`), or attributes whose
 * values are strings or language maps (the shape content widgets use), or `[]` for none.
 */
const extensionSchema = Joi.alternatives().try(
  emptyArray,
  Joi.object({
    ...Object.fromEntries(
      CONTENT_LANGUAGES.map((lang) => [lang, Joi.alternatives().try(emptyArray, attributeObject)]),
    ),
    ...Object.fromEntries(
      Object.entries(ATTRIBUTES).map(([name, schema]) => [
        name,
        Joi.alternatives().try(schema, languageMap(schema)),
      ]),
    ),
  }),
);

const elementSchema = Joi.object({
  id: idSchema.required(),
  parent_id: Joi.number().integer().min(0).max(2_147_483_647).required(),
  child_id: Joi.number().integer().min(0).max(2_147_483_647).required(),
  class: Joi.string().allow('').max(255).default(''),
  is_editable: Joi.boolean().default(true),
  tag: Joi.string()
    .pattern(/^[A-Za-z][A-Za-z0-9]{0,15}$/)
    .required(),
  // Inner HTML per language, as long as a catalogue description may be.
  value: Joi.alternatives()
    .try(languageMap(Joi.string().allow('').max(200_000)), emptyArray)
    .default({}),
  extension: extensionSchema.default([]),
  // Kept: an element still holding the catalogue's sample stays "to fill" when added again.
  sample: Joi.array()
    .items(Joi.string().valid('value', 'src', 'href', 'title'))
    .unique()
    .max(4),
})
  // Fields of a content element the favourite does not keep (e.g. `html`) are ignored.
  .unknown(true);

export const createFavouriteBody = Joi.object<CreateFavouriteInput, true>({
  name: Joi.string().trim().min(1).max(255).required(),
  widget_id: idSchema.required().description('A widget of the catalogue (`GET /widget`).'),
  children: Joi.array().items(elementSchema).min(1).max(1_000).required(),
}).required();

export const favouriteParams = Joi.object<{ widget_favourite_id: number }, true>({
  widget_favourite_id: idSchema.required(),
});

const langMap = baseComponent('WlLangMap');
const textOrMap = Joi.alternatives().try(Joi.string(), langMap).match('one');
const noAttributes = Joi.array().max(0);

/** An element of a favourite as answered. */
export const favouriteElementShape = responseObject({
  sample: Joi.array()
    .items(Joi.string().valid('value', 'src', 'href', 'title'))
    .max(4)
    .unique()
    .optional()
    .description(
      "The element's parts still holding the catalogue's sample, as content elements carry\nthem (`WlContentElement.sample`); kept, so a favourite saved from a widget still to\nfill and added again (`json`) stays out of every public output until written.\n",
    ),
  id: Joi.number().integer().min(1),
  parent_id: Joi.number().integer().min(0).description('0 = top level of the widget.'),
  child_id: Joi.number().integer().min(0).description('Order among siblings.'),
  class: Joi.string(),
  is_editable: Joi.boolean(),
  tag: Joi.string(),
  value: langMap,
  extension: Joi.alternatives()
    .try(
      noAttributes,
      Joi.object({
        ...Object.fromEntries(Object.keys(ATTRIBUTES).map((name) => [name, textOrMap])),
        ...Object.fromEntries(
          CONTENT_LANGUAGES.map((lang) => [
            lang,
            Joi.alternatives().try(noAttributes, baseComponent('WlAttributes')).match('one'),
          ]),
        ),
      })
        .min(1)
        // Each attribute and language is there only when it has a value.
        .prefs({ presence: 'optional' }),
    )
    .match('one')
    .description(
      '`[]`, a language map of attribute objects, or attributes whose values are strings or language maps.',
    ),
}).id('WlFavouriteElement');

export const favouriteShape = responseObject({
  id: Joi.number().integer(),
  name: Joi.string(),
  widget_id: Joi.number().integer(),
  children: Joi.array().items(favouriteElementShape),
  created_at: offsetTimestamp,
  updated_at: offsetTimestamp,
}).id('WlFavourite');

/** GET /widget-favourite 200. */
export const favouritesResponse = dataResponse(Joi.array().items(favouriteShape));
/** POST /widget-favourite 201, GET /widget-favourite/{id} 200. */
export const favouriteResponse = dataResponse(favouriteShape).id('WlFavouriteResponse');
/** DELETE /widget-favourite/{id} 200. */
export const favouriteDeletedResponse = responseObject({
  data: responseObject({ id: Joi.number().integer() }),
  message: Joi.valid('Widget favourite deleted'),
});
