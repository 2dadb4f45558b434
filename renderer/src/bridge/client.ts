// The renderer's one door to main: the only module that touches `window.api` (made by the preload bridge). Only the
// features' api.ts files (and app/api.ts) import it; components use their hooks (lint: eslint.config.js).
import type { Api, Result } from '../../../shared/ipc';
import { ApiError } from './errors';

declare global {
  interface Window {
    readonly api?: Api;
  }
}

/** The bridge, or undefined when the page runs outside the app (then the UI says so). */
const api: Api | undefined = window.api;

/** False when the page runs outside the app: the screens then say so instead of calling main. */
export const hasBridge: boolean = api !== undefined;

/** The bridge, or an error the screens show in words when the page runs outside the app. */
export function bridge(): Api {
  if (!api) throw new Error('This page runs outside the app: the payment bridge is missing.');
  return api;
}

/** The value of an answer, or an ApiError with main's message. */
export async function unwrap<T>(answer: Promise<Result<T>>): Promise<T> {
  const result = await answer;
  if (result.ok) return result.value;
  throw new ApiError(result.error);
}
