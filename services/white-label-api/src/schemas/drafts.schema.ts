/** The draft state an editor reads (`GET …/content/…/draft`); publish and discard answer content widgets. */
import Joi from 'joi';
import { PUBLISH_MODES } from '@catalogue/config';
import { dataResponse, responseObject } from './common.schema';

export const draftResponse = dataResponse(
  responseObject({
    publish_mode: Joi.string()
      .valid(...PUBLISH_MODES)
      .description(
        "The eshop's setting: `immediate` (every write reaches the storefront at once, the\nspecification's behaviour) or `draft` (writes wait as a draft until published).",
      ),
    has_draft: Joi.boolean().description('Whether the entity has a draft the storefront does not serve yet.'),
    version: Joi.number()
      .integer()
      .min(0)
      .description("The content's version (the ETag of the editor's view)."),
    published_version: Joi.number()
      .integer()
      .min(1)
      .allow(null)
      .description('The version of the revision the storefront serves (null: none recorded yet).'),
    draft_updated_at: Joi.string()
      .allow(null)
      .description('When the draft was last written, ISO 8601 with a numeric offset (null: no draft).'),
    html: Joi.object()
      .pattern(Joi.string(), Joi.string().allow(''))
      .description(
        'The draft rendered in every eshop language as the storefront will serve it once published\n(without a draft: the html the storefront serves now).',
      ),
  }).id('WlContentDraft'),
);
