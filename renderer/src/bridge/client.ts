// The renderer's one door to main: the only module that touches `window.api` (made by the preload bridge).
import type { Api, ErrorParams, IpcError, Result } from '../../../shared/ipc';

declare global {
  interface Window {
    readonly api?: Api;
  }
}

/** An answer main refused: a code to branch on and a message a person can read. */
export class ApiError extends Error {
  readonly code: string;
  readonly field: string | undefined;
  /** The numbers and names main's message is made of, to say it again in the desk's language. */
  readonly params: ErrorParams | undefined;

  constructor(error: IpcError) {
    super(error.message);
    this.name = 'ApiError';
    this.code = error.code;
    this.field = error.field;
    this.params = error.params;
  }
}

/** The bridge, or undefined when the page runs outside the app (then the UI says so). */
export const api: Api | undefined = window.api;

/** The value of an answer, or an ApiError with main's message. */
export async function unwrap<T>(answer: Promise<Result<T>>): Promise<T> {
  const result = await answer;
  if (result.ok) return result.value;
  throw new ApiError(result.error);
}

export const messageOf = (error: unknown): string =>
  error instanceof ApiError ? error.message : 'Something went wrong in the app. Try again; if it happens again, tell IT.';
