/**
 * The editor's element-level writes: PUT (values and attributes of existing elements) and
 * element-copy (duplicate or remove one element with its descendants). Both run through
 * `editContent`, one transaction each.
 */
import {
  childrenOf,
  copyElement,
  findWidget,
  idsAfter,
  maxElementId,
  removeElement,
  type ContentWidget,
  type Language,
} from '@catalogue/content';
import { widgetTemplates } from '@catalogue/content-store';
import type { Knex } from '@catalogue/db';
import { ValidationError } from '@catalogue/http';
import type { ContentPutInput, ElementCopyInput } from '../schemas/content.schema';
import { applyValueEdits } from './content-elements';
import { editContent, type ContentTarget, type VersionedContent } from './content.service';

/** PUT `{"<content widget id>": {children: [element]}}`. */
export function editValues(
  db: Knex,
  target: ContentTarget,
  body: ContentPutInput,
  lang: Language,
): Promise<VersionedContent> {
  return editContent(db, target, lang, async (tree, trx) =>
    applyValueEdits(tree, await widgetTemplates(trx), body),
  );
}

/** The element-copy rules on one tree (pure; 422 for anything the body names that is not there). */
export function applyElementAction(tree: readonly ContentWidget[], input: ElementCopyInput): ContentWidget[] {
  const widget = findWidget(tree, input.contentId);
  if (widget === undefined) throw new ValidationError({ contentId: ['The selected contentId is invalid.'] });
  const parentId = Number(input.parent);
  if (parentId !== 0 && !widget.children.some((e) => e.id === parentId)) {
    throw new ValidationError({ parent: ['The selected parent is invalid.'] });
  }
  const siblings = childrenOf(widget, parentId);
  if (input.index >= siblings.length) {
    throw new ValidationError({
      index: [
        siblings.length === 0
          ? 'The index field is invalid: the parent has no elements.'
          : `The index field must be less than ${siblings.length} (the number of elements under the parent).`,
      ],
    });
  }
  if (input.action === 'remove' && parentId === 0 && siblings.length === 1) {
    throw new ValidationError({
      index: ['The element is the only top-level element of the widget; delete the content widget instead.'],
    });
  }
  const next =
    input.action === 'copy'
      ? copyElement(widget, parentId, input.index, idsAfter(maxElementId(tree)))
      : removeElement(widget, parentId, input.index);
  return tree.map((w) => (w.id === widget.id && next !== undefined ? next : w));
}

/** POST element-copy. */
export function elementAction(
  db: Knex,
  target: ContentTarget,
  input: ElementCopyInput,
  lang: Language,
): Promise<VersionedContent> {
  return editContent(db, target, lang, (tree) => applyElementAction(tree, input));
}
