/** Tells a listener when the card form starts or stops holding card data: once per change, and "no" when it goes. */

export interface Presence {
  /** Reports `present` if it differs from what was last reported. */
  update(present: boolean, listener: ((present: boolean) => void) | undefined): void;
  /** The form is going away: reports "no card data" if "card data" was the last word. */
  end(listener: ((present: boolean) => void) | undefined): void;
}

export function createPresence(): Presence {
  let reported = false;
  return {
    update(present, listener) {
      if (present === reported) return;
      reported = present;
      listener?.(present);
    },
    end(listener) {
      if (!reported) return;
      reported = false;
      listener?.(false);
    },
  };
}
