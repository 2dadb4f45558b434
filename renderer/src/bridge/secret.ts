// A password on its way to main through a mutation. react-query keeps a mutation's variables (in its cache and in the
// state of the component that shows the result): the variables hold this box, emptied as soon as the call is made.

export interface Secret {
  /** The value, once: the box is empty afterwards. */
  take(): string;
}

export function secret(value: string): Secret {
  let held: string | undefined = value;
  return Object.freeze({
    take(): string {
      const out = held ?? '';
      held = undefined;
      return out;
    },
    toJSON: () => '[secret]',
  });
}
