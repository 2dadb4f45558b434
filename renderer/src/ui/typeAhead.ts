// Type-ahead across a screen change: the keys an agent types after Enter opened a reservation, before its card form is
// drawn, are held here — in memory, for a few seconds at most, never in a store — and typed into the field that takes
// the focus next (the card number), as if the agent had typed them there. The search box keeps only what was searched.

/** How long keys are held for a field that does not come (no card form on this reservation): then they are dropped. */
export const HOLD_MS = 4000;

let held = '';
let holding = false;
/** The field came: held keys (and any typed meanwhile) are being typed into it. */
let releasing = false;
let timer: ReturnType<typeof setTimeout> | undefined;

function stop(): void {
  holding = false;
  releasing = false;
  held = '';
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  window.removeEventListener('keydown', onKey, true);
  window.removeEventListener('pointerdown', stop, true);
}

function onKey(event: KeyboardEvent): void {
  if (!holding) return;
  const target = event.target;
  // A field already has the focus (the agent clicked one): it takes the keys itself.
  if (
    (!releasing && target instanceof HTMLInputElement) ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  )
    return stop();
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key.length === 1) held += event.key;
  else if (event.key === 'Backspace') held = held.slice(0, -1);
  else if (event.key !== 'Shift') return stop();
  event.preventDefault();
}

/**
 * Starts holding the keys typed from now on, and takes the focus off the element that has it (the search box) so that
 * nothing more lands there. Held keys go to the next `releaseTypeAhead`, or are dropped after HOLD_MS.
 */
export function holdTypeAhead(): void {
  stop();
  holding = true;
  window.addEventListener('keydown', onKey, true);
  window.addEventListener('pointerdown', stop, true);
  timer = setTimeout(stop, HOLD_MS);
  const active = document.activeElement;
  if (active instanceof HTMLElement) active.blur();
}

/** One key typed into the focused field as the browser would: its value changed at the caret, then an input event. */
function typeKey(key: string): void {
  const field = document.activeElement;
  if (!(field instanceof HTMLInputElement)) return;
  const start = field.selectionStart ?? field.value.length;
  const end = field.selectionEnd ?? start;
  // The prototype's setter, as the browser's own typing does: React's tracker then sees the change as the agent's.
  Reflect.set(HTMLInputElement.prototype, 'value', field.value.slice(0, start) + key + field.value.slice(end), field);
  field.setSelectionRange(start + 1, start + 1);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Types the held keys into whatever field has the focus now, one by one (the field's own input handling formats them
 * and moves the focus on, as for keys typed there), then stops holding. Called when the field is drawn: the keys are
 * typed just after that render (outside it, so that each one is handled as typed), keys typed meanwhile after them.
 */
export function releaseTypeAhead(): void {
  if (!holding || releasing) return;
  releasing = true;
  setTimeout(() => {
    while (held !== '') {
      const key = held.charAt(0);
      held = held.slice(1);
      typeKey(key);
    }
    stop();
  }, 0);
}
