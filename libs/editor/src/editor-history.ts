/**
 * Undo, redo and restore, built on the content's revisions (every write of the API stores one):
 * undo restores the newest revision older than the version shown, redo restores the version
 * undone. The redo stack is the editor's and a new action clears it; together with the version
 * the undo started from it is kept in the tab's sessionStorage for the version it led to, so
 * undo and redo go on after a reload of the page. Ctrl/Cmd+Z and Shift+Ctrl/Cmd+Z anywhere in
 * the editor except in a text being edited or a field (there the browser's own undo applies).
 */
import { EditorCore } from './editor-core';
import type { View } from './editor-state';
import type { RevisionView } from '@catalogue/content/v3';

interface Remembered {
  version: number;
  base: number | null;
  redo: number[];
}

export class EditorHistory extends EditorCore {
  constructor() {
    super();
    this.addEventListener('keydown', (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.key.toLowerCase() !== 'z' || !this.has('history'))
        return;
      const target = e.composedPath()[0];
      if (
        target instanceof HTMLElement &&
        (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
      )
        return;
      e.preventDefault();
      void (e.shiftKey ? this.redo() : this.undo());
    });
  }

  /** Undoes the last change (whatever made it); false when there was nothing to undo or it failed. */
  async undo(): Promise<boolean> {
    const view = this.shown;
    const base = this.undoBase ?? view?.content.version ?? null;
    if (!view || this.busy || base === null) return false;
    const target = (await this.revisionsOf(view))?.find((r) => r.version < base);
    if (target === undefined) {
      this.status = this.t('nothingToUndo');
      return false;
    }
    const redo = [...this.redoStack, base];
    return this.restoreTo('undo', view, target, redo, this.t('undone'));
  }

  /** Restores the version the last undo left; false when there was nothing to redo or it failed. */
  async redo(): Promise<boolean> {
    const view = this.shown;
    const version = this.redoStack.at(-1);
    if (!view || this.busy || version === undefined) {
      if (version === undefined) this.status = this.t('nothingToRedo');
      return false;
    }
    const target = (await this.revisionsOf(view))?.find((r) => r.version === version);
    if (target === undefined) {
      this.redoStack = [];
      this.status = this.t('nothingToRedo');
      return false;
    }
    return this.restoreTo('redo', view, target, this.redoStack.slice(0, -1), this.t('redone'));
  }

  /** Restores a revision the History panel lists (a new action: nothing to redo after it). */
  protected async restoreRevision(revision: RevisionView, when: string): Promise<void> {
    const view = this.shown;
    if (!view) return;
    const ok = await this.change(
      'restore-revision',
      { revision_id: revision.id, version: revision.version },
      (v) => v.content.restoreRevision(revision.id, v.lang),
      this.t('revisionRestored', { when }),
      view,
    );
    if (ok) await this.closePanel();
  }

  private async revisionsOf(view: View): Promise<RevisionView[] | undefined> {
    try {
      return await view.content.revisions();
    } catch (err) {
      this.fail(err);
      return undefined;
    }
  }

  private async restoreTo(
    action: 'undo' | 'redo',
    view: View,
    target: RevisionView,
    redo: number[],
    done: string,
  ): Promise<boolean> {
    const ok = await this.change(
      action,
      { revision_id: target.id, version: target.version },
      (v) => v.content.restoreRevision(target.id, v.lang),
      done,
      view,
    );
    if (!ok) return false;
    this.redoStack = redo;
    this.undoBase = target.version;
    this.remember(view);
    await this.updateComplete;
    // The widgets were drawn anew: focus that went with them goes to the toolbar's Undo/Redo.
    const outer = document.activeElement;
    if (!outer || outer === document.body || (outer === this && !this.renderRoot.querySelector(':focus'))) {
      const button = this.renderRoot.querySelector<HTMLButtonElement>(
        `button[data-${action}]:not(:disabled)`,
      );
      (button ?? this.renderRoot.querySelector<HTMLButtonElement>('button[data-history]'))?.focus();
    }
    return true;
  }

  private storageKey(view: View): string {
    return `ccs-undo:${view.content.api.url('')}${view.content.entityPath}`;
  }

  /** Keeps where undo stands for the version it led to (read back by the next load). */
  private remember(view: View): void {
    const version = view.content.version;
    if (version === null) return;
    const state: Remembered = { version, base: this.undoBase, redo: this.redoStack };
    try {
      sessionStorage.setItem(this.storageKey(view), JSON.stringify(state));
    } catch {
      // storage refused (private mode, quota): undo still works until the page is left
    }
  }

  protected override async load(): Promise<void> {
    await super.load();
    const view = this.shown;
    if (!view || !this.current(view)) return;
    try {
      const state = JSON.parse(sessionStorage.getItem(this.storageKey(view)) ?? 'null') as Remembered | null;
      // Only for the very version it led to: anything written since is a new action.
      if (state && state.version === view.content.version) {
        this.undoBase = state.base;
        this.redoStack = state.redo;
      }
    } catch {
      // nothing remembered
    }
  }
}
