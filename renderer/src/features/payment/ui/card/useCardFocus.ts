// Where the caret and the focus go after a render that moved them: set by the form's events and operations, applied
// after React has drawn the new fields (a reformatted number, the summary that replaced the fields, an error).
import { useLayoutEffect, useRef, type RefObject } from 'react';
import type { CardFieldName } from './fields';

export type Focusable = CardFieldName | 'status' | 'summary';

export interface CardElements {
  form: RefObject<HTMLFormElement | null>;
  status: RefObject<HTMLParagraphElement | null>;
  summary: RefObject<HTMLDivElement | null>;
  /** A field's input (read in events and effects only). */
  inputOf: (field: CardFieldName) => HTMLInputElement | null;
}

export interface CardFocus {
  /** Where the caret goes after a reformatting edit. */
  pendingCaretRef: RefObject<{ field: CardFieldName; at: number } | undefined>;
  /** What to focus after a phase change. */
  pendingFocusRef: RefObject<Focusable | undefined>;
}

export function useCardFocus({ form, status, summary, inputOf }: CardElements): CardFocus {
  const pendingCaretRef = useRef<{ field: CardFieldName; at: number } | undefined>(undefined);
  const pendingFocusRef = useRef<Focusable | undefined>(undefined);

  useLayoutEffect(() => {
    const caret = pendingCaretRef.current;
    pendingCaretRef.current = undefined;
    const input = caret ? inputOf(caret.field) : null;
    if (caret && input && document.activeElement === input) input.setSelectionRange(caret.at, caret.at);

    const target = pendingFocusRef.current;
    if (target === undefined) return;
    const element = target === 'status' ? status.current : target === 'summary' ? summary.current : inputOf(target);
    if (!element) return;
    pendingFocusRef.current = undefined;
    // Only take focus back from ourselves or from nowhere: never from where the screen around us put it.
    const active = document.activeElement;
    if (active === null || active === document.body || form.current?.contains(active)) element.focus();
  });

  return { pendingCaretRef, pendingFocusRef };
}
